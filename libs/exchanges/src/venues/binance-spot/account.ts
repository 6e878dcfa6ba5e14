/**
 * The Binance account and its API key, shared by Binance spot and USDⓈ-M (one key for both): the key's
 * permission query lives on the spot host, `GET /sapi/v1/account/apiRestrictions` (wallet API, "Get API Key
 * Permission (USER_DATA)", https://developers.binance.com/docs/wallet/account/api-key-permission).
 */
import type { ExchangeAccount } from '../venue';
import { binanceKeyPermissions } from './key-permissions';

export const BINANCE_ACCOUNT: ExchangeAccount = {
  exchange: 'Binance',
  displayName: 'Binance',
  passphrase: false,
  aliases: ['binance'],
  signupUrl: 'https://accounts.binance.com/register',
  permissionNames: { read: '"Enable Reading"', spot: '"Enable Spot & Margin Trading"', futures: '"Enable Futures"' },
  tradingOnlyHowTo:
    'On Binance, open Account → API Management, edit the key (or create a new one) and tick only "Enable Reading" and "Enable Spot & Margin Trading" (plus "Enable Futures" for futures bots); leave "Enable Withdrawals" unticked.',
  ipRestrictionHowTo: 'edit the key, choose "Restrict access to trusted IPs only" and add',
  keyPermissions: {
    call: 'GET /sapi/v1/account/apiRestrictions',
    ask: (ex) => ex.sapiGetAccountApiRestrictions(),
    parse: binanceKeyPermissions,
  },
};

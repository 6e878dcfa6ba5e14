/**
 * The KuCoin account and its API key (with a passphrase), shared by KuCoin spot and futures: the key's
 * information is `GET /api/v1/user/api-key` on the spot host ("Get Apikey Info",
 * https://www.kucoin.com/docs-new/rest/account-info/account-funding/get-apikey-info).
 */
import type { ExchangeAccount } from '../venue';
import { kucoinKeyPermissions } from './key-permissions';

export const KUCOIN_ACCOUNT: ExchangeAccount = {
  exchange: 'Kucoin',
  displayName: 'KuCoin',
  passphrase: true,
  aliases: ['kucoin'],
  signupUrl: 'https://www.kucoin.com/ucenter/signup',
  permissionNames: { read: 'General', spot: 'Spot', futures: 'Futures' },
  tradingOnlyHowTo:
    'On KuCoin, open Account → API Management and create a key with only the General and Spot permissions (plus Futures for futures bots); leave Withdrawal (Transfer) unticked.',
  ipRestrictionHowTo: 'edit the key and add to its IP restriction',
  keyPermissions: {
    call: 'GET /api/v1/user/api-key',
    ask: (ex) => ex.privateGetUserApiKey(),
    parse: kucoinKeyPermissions,
  },
};

import type { ExchangeName } from '@gridrocket/shared';
import { accountOf } from '@gridrocket/exchanges/venues';

/**
 * Keys that cannot withdraw (issue 30): what GridRocket accepts, warns about and refuses, from what the venue
 * reports a key may do (libs/exchanges venues/key-permissions.ts; the endpoints in docs/exchanges.md). Pure.
 *
 * - A key that can withdraw is refused when added; one that became able to later (daily check) stays
 *   listed with a warning and starts no new bot (bots already running keep running: stopping them would
 *   leave orders and positions behind unattended; the owner decides).
 * - A key that can trade neither spot nor futures, or cannot read the account, is refused when added; a bot
 *   whose market the key cannot trade does not start (409 naming the permission).
 * - A key without an IP restriction is accepted with a warning naming the addresses to allow.
 */

/** The facts recorded on the key's stream (the venue's answer, normalised). */
export interface KeyPermissionFacts {
  withdraw: boolean;
  read: boolean;
  spot: boolean;
  futures: boolean;
  /** null: not applicable (the paper exchange has no IP lists). */
  ipRestricted: boolean | null;
}

/** Why a stored key's check gave no facts: the venue refused the key, or could not be asked. */
export type KeyCheckFailure = 'refused' | 'unreachable';

export type BotMarket = 'spot' | 'futures';

/** The venue's own spelling in texts ("KuCoin"): its account in the venue registry. */
const venueName = (exchange: ExchangeName) => accountOf(exchange).displayName;

/** How to make a trading-only key, per venue (what the refusal and the warning say): the venue's account. */
export function tradingOnlyHowTo(exchange: ExchangeName): string {
  return accountOf(exchange).tradingOnlyHowTo;
}

export const withdrawRefusal = (exchange: ExchangeName) =>
  `This ${venueName(exchange)} API key can withdraw funds; GridRocket accepts only keys that cannot. ${tradingOnlyHowTo(exchange)} Then add the key here again.`;

const permissionName = (exchange: ExchangeName, what: 'read' | BotMarket) => accountOf(exchange).permissionNames[what];

export const noTradingRefusal = (exchange: ExchangeName) =>
  `This ${venueName(exchange)} API key cannot trade: the bots need ${permissionName(exchange, 'spot')} for spot bots or ${permissionName(exchange, 'futures')} for futures bots. Edit the key on ${venueName(exchange)} and add it here again.`;

export const noReadRefusal = (exchange: ExchangeName) =>
  `This ${venueName(exchange)} API key cannot read the account (${permissionName(exchange, 'read')} is off): the bots need it to see balances and orders. Edit the key on ${venueName(exchange)} and add it here again.`;

/** The refusal of a key being added (400 on the apiKey field), or null when it is accepted. */
export function keyRefusal(exchange: ExchangeName, p: KeyPermissionFacts): string | null {
  if (p.withdraw) return withdrawRefusal(exchange);
  if (!p.spot && !p.futures) return noTradingRefusal(exchange);
  if (!p.read) return noReadRefusal(exchange);
  return null;
}

/** Why a bot of `market` must not start with this key (409), or null. `p` null: never checked (keys from before issue 30). */
export function botStartRefusal(exchange: ExchangeName, market: BotMarket, p: KeyPermissionFacts | null): string | null {
  if (!p) return null;
  if (p.withdraw) {
    return `${venueName(exchange)} reports that your API key can now withdraw funds, so no new bot starts with it. ${tradingOnlyHowTo(exchange)}`;
  }
  if (!p[market]) {
    return `Your ${venueName(exchange)} API key cannot trade ${market}: it needs the ${permissionName(exchange, market)} permission. Edit the key on ${venueName(exchange)} (or add one that has it) before starting this ${market} bot.`;
  }
  return null;
}

export interface KeyWarning {
  code: 'no-ip-restriction' | 'withdraw-enabled' | 'cannot-trade' | 'key-refused';
  message: string;
}

/**
 * The warnings the key list shows. `egressIps`: the addresses GridRocket's server calls the venues from
 * (EGRESS_IP); unknown offline, so when none is configured the text says "the address of this GridRocket
 * server" and asks the operator for it.
 */
export function keyWarnings(
  exchange: ExchangeName,
  p: KeyPermissionFacts | null,
  failure: KeyCheckFailure | null,
  egressIps: readonly string[],
): KeyWarning[] {
  const out: KeyWarning[] = [];
  if (failure === 'refused') {
    out.push({ code: 'key-refused', message: `${venueName(exchange)} refused this key at the last daily check (deleted on ${venueName(exchange)}, expired, or the IP list no longer allows this server). Bots cannot use it: add a new key.` });
  }
  if (!p) return out;
  if (p.withdraw) out.push({ code: 'withdraw-enabled', message: `${venueName(exchange)} reports that this key can now withdraw funds: no new bot starts with it until withdrawals are off (bots already running keep running). ${tradingOnlyHowTo(exchange)}` });
  if (!p.spot && !p.futures) out.push({ code: 'cannot-trade', message: noTradingRefusal(exchange) });
  if (p.ipRestricted === false) {
    const where = egressIps.length > 0 ? egressIps.join(', ') : 'the address of this GridRocket server (ask its operator for it)';
    const how = accountOf(exchange).ipRestrictionHowTo;
    out.push({ code: 'no-ip-restriction', message: `Not restricted to IP addresses: whoever obtains this key can use it from anywhere. On ${venueName(exchange)}, ${how}: ${where}.` });
  }
  return out;
}

/**
 * ccxt's errors mapped to ours (exchange.errors.ts) with fixed messages: the exchange's payload, URLs
 * and keys never reach a message (the text is only inspected, never copied).
 */
import {
  BadApiKeyError,
  ExchangeDownError,
  ExchangeError,
  ExchangeNotSupportedError,
  FuturesSettingRefusedError,
  InsufficientFundsError,
  InvalidOrderError,
  KeyRefusedError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownSymbolError,
} from './exchange.errors';
import { ccxt } from './ccxt-module';
import { VENUE_REGISTRY } from './venues/registry';

/**
 * Issue 40: the venue refused a futures symbol's leverage or margin mode (Binance -4047, -4048, -4028,
 * -4161; Kucoin 300016): our error with the venue's DOCUMENTED text for that code (venue rules
 * answers.futuresSettings, docs/exchanges.md), so the trader reads why; the upstream text is only
 * inspected for the code, never copied. `%s` (the leverage) stays unnamed.
 */
function futuresSettingRefusal(e: unknown): FuturesSettingRefusedError | null {
  if (!(e instanceof ccxt.ExchangeError)) return null;
  const m = /"code":\s*"?(-?\d+)"?/.exec(String((e as Error).message));
  if (!m) return null;
  // every venue that documents futures-setting answers (the futures venues of the registry)
  for (const { rules } of VENUE_REGISTRY) {
    const settings = rules.answers.futuresSettings ?? {};
    for (const [setting, answer] of Object.entries(settings) as Array<[FuturesSettingRefusedError['setting'], { code: string | number; msg: string }]>) {
      if (String(answer.code) !== m[1] || answer.code === '400100') continue;
      return new FuturesSettingRefusedError(setting, answer.msg.replace(/ ?%s/, '').replace(/than\.$/, "than the contract's maximum."), answer.code);
    }
  }
  return null;
}


/** Map any ccxt (or unknown) error to ours. Never copies the upstream message. */
export function mapCcxtError(e: unknown): ExchangeError {
  if (e instanceof ExchangeError) return e;
  const setting = futuresSettingRefusal(e);
  if (setting) return setting;
  const name = (e as { constructor?: { name?: string } })?.constructor?.name ?? 'Error';
  if (e instanceof ccxt.AuthenticationError || e instanceof ccxt.AccountSuspended) return new BadApiKeyError(name);
  if (e instanceof ccxt.ExchangeError && /"code":\s*"?429000\b|too many requests/i.test(String((e as Error).message))) {
    return new RateLimitedError(name); // kucoin's 429000 arrives as a generic ExchangeError
  }
  if (e instanceof ccxt.InsufficientFunds) return new InsufficientFundsError(name);
  // Codes ccxt leaves generic: binance futures -2019 "Margin is insufficient.", kucoin 200004 /
  // kucoin futures 300003 balance not enough. The text is only inspected, never copied.
  if (e instanceof ccxt.ExchangeError && /"code":\s*"?(-2019|200004|300003)\b|insufficient/i.test(String((e as Error).message))) {
    return new InsufficientFundsError(name);
  }
  // binance -2015 once the key has authenticated: a temporary ban to ccxt, or a revoked key (KeyRefusedError)
  if (e instanceof ccxt.DDoSProtection && /"code":\s*-2015\b/.test(String((e as Error).message))) return new KeyRefusedError(name);
  if (e instanceof ccxt.RateLimitExceeded || e instanceof ccxt.DDoSProtection) return new RateLimitedError(name);
  // binance order refusals ccxt leaves generic: -1013 filter failure, -4164 notional below the minimum,
  // -4014 price off the tick, -1111 amount precision, -2022 a reduce-only order that would not reduce the
  // position (issue 32; docs/exchanges.md) (the text is only inspected, never copied)
  if (e instanceof ccxt.ExchangeError && /"code":\s*(-1013|-4164|-4014|-1111|-2022)\b/.test(String((e as Error).message))) return new InvalidOrderError();
  if (e instanceof ccxt.OrderNotFound) return new OrderNotFoundError();
  // binance futures -4061 (position side does not match the position mode) and other refusals of a request
  if (e instanceof ccxt.OperationRejected) return new InvalidOrderError();
  if (e instanceof ccxt.BadSymbol) return new UnknownSymbolError('');
  if (e instanceof ccxt.InvalidOrder) return new InvalidOrderError();
  if (
    e instanceof ccxt.RequestTimeout ||
    e instanceof ccxt.ExchangeNotAvailable ||
    e instanceof ccxt.NetworkError ||
    e instanceof ccxt.OnMaintenance
  ) {
    return new ExchangeDownError(name);
  }
  if (e instanceof ccxt.NotSupported) return new ExchangeNotSupportedError('the exchange does not support this call');
  if (e instanceof ccxt.BadRequest || e instanceof ccxt.ArgumentsRequired) return new InvalidOrderError();
  return new ExchangeDownError(name);
}

/** Outcome unknown: the request may or may not have reached the exchange. */
export function isUncertain(e: unknown): boolean {
  return (
    e instanceof ccxt.RequestTimeout ||
    ((e instanceof ccxt.NetworkError || e instanceof ccxt.ExchangeNotAvailable) && !(e instanceof ccxt.DDoSProtection))
  );
}

export function isDuplicate(e: unknown): boolean {
  // binance -2010 "Duplicate order sent."; kucoin "clientOid duplicated" (message text stays internal)
  return e instanceof ccxt.ExchangeError && /duplicate/i.test(String((e as Error).message));
}

/**
 * Binance's candles on the stand-ins (issue 40: backtests over the venue's own history, read through ccxt's
 * public `fetchOHLCV`), as Binance documents them:
 * - spot `GET /api/v3/klines` (https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints#klinecandlestick-data):
 *   weight 2; `symbol` and `interval` mandatory, `startTime`, `endTime`, `timeZone` (default 0, UTC),
 *   `limit` (default 500, maximum 1000); "Klines are uniquely identified by their open time"; "If
 *   startTime and endTime are not sent, the most recent klines are returned"; intervals (case-sensitive)
 *   1s, 1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 6h, 8h, 12h, 1d, 3d, 1w, 1M;
 * - USDⓈ-M `GET /fapi/v1/klines` (https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Kline-Candlestick-Data):
 *   weight by `limit`: [1, 100) 1, [100, 500) 2, [500, 1000] 5, above 1000 10; `limit` default 500,
 *   maximum 1500; the same intervals without 1s.
 * A row: [open time, open, high, low, close, volume, close time (open + interval − 1), quote asset volume,
 * number of trades, taker buy base volume, taker buy quote volume, "0"] (prices and volumes as strings).
 * Weights: rate-limits.ts. Refusals (https://developers.binance.com/docs/binance-spot-api-docs/errors): an unknown symbol -1121
 * "Invalid symbol.", an unknown interval -1120 "Invalid interval.", a missing mandatory parameter -1102,
 * startTime after endTime -1023 "Start time is greater than end time.", each with HTTP 400.
 *
 * The stand-in's venue core (the paper exchange) has no past: the test gives the history (`KlineHistory`:
 * one candle per open time, or null before the pair was listed); without one, every candle is flat at the
 * core's current price. The candle still forming (open time ≤ now < its close) is served, as the venue
 * does. Not documented, and so not played: a `limit` above the maximum (the stand-in serves the maximum;
 * ccxt's fetchOHLCV never asks for more than 1000), `timeZone` other than 0, and the calendar intervals
 * 3d and 1M (the stand-in throws: a test that needs them adds them with their alignment).
 */
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import type { KlineHistory, StandInCore } from './standin.types';

export type { KlineCandle, KlineHistory } from './standin.types';

const MINUTE = 60_000;
/** Fixed-length intervals, in ms (Binance's names). */
export const KLINE_INTERVALS: Record<string, number> = {
  '1s': 1000,
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '2h': 120 * MINUTE,
  '4h': 240 * MINUTE,
  '6h': 360 * MINUTE,
  '8h': 480 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
};
/** Valid on the venue, not played here (calendar alignment the docs do not state). */
const CALENDAR = new Set(['3d', '1M']);
/** Weeks open on Mondays 00:00 UTC (1970-01-05), not on the epoch's Thursday. */
const WEEK_ORIGIN = 4 * 1440 * MINUTE;

const refuse = (code: number, msg: string): StubResponse => ({ status: 400, body: { code, msg } });
const text = (x: number) => String(Number(x.toPrecision(12)));

/** The klines route of a Binance dialect (spot or USDⓈ-M) over the core's symbols and `history`. */
export function binanceKlines(core: StandInCore, history?: KlineHistory): (req: StubRequest) => StubResponse {
  const futures = core.market === 'futures';
  const maxLimit = futures ? 1500 : 1000;
  return (req) => {
    const q = req.query;
    const symbol = q.get('symbol');
    const interval = q.get('interval');
    if (!symbol) return refuse(-1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed.");
    if (!interval) return refuse(-1102, "Mandatory parameter 'interval' was not sent, was empty/null, or malformed.");
    if (!core.venue.symbols(core.exchange, core.market).some((s) => s.symbol === symbol)) return refuse(-1121, 'Invalid symbol.');
    if (CALENDAR.has(interval)) throw new Error(`the stand-in does not serve ${interval} klines`);
    const step = KLINE_INTERVALS[interval];
    if (!step || (futures && interval === '1s')) return refuse(-1120, 'Invalid interval.');
    const tz = q.get('timeZone');
    if (!futures && tz !== null && tz !== '0' && tz !== '00:00') throw new Error('the stand-in serves UTC klines only (timeZone 0)');
    const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
    const start = num('startTime');
    const end = num('endTime');
    if (start !== undefined && end !== undefined && start > end) return refuse(-1023, 'Start time is greater than end time.');
    const limit = Math.max(1, Math.min(maxLimit, Math.floor(num('limit') ?? 500)));
    const origin = interval === '1w' ? WEEK_ORIGIN : 0;
    const floor = (t: number) => Math.floor((t - origin) / step) * step + origin;
    // the newest open time served: the candle forming now, or the one holding endTime
    const newest = floor(Math.min(end ?? Infinity, core.now()));
    const times: number[] = [];
    if (start !== undefined) {
      for (let t = Math.ceil((start - origin) / step) * step + origin; t <= newest && times.length < limit; t += step) times.push(t);
    } else {
      for (let t = newest; times.length < limit && t >= 0; t -= step) times.unshift(t);
    }
    const price = () => Number(core.units(core.venue.priceUnits(core.exchange, symbol) ?? 0));
    const rows = [];
    for (const t of times) {
      const c = history ? history(symbol, t, step) : { open: price(), high: price(), low: price(), close: price(), volume: 0 };
      if (!c) continue;
      const quote = c.volume * c.close;
      rows.push([t, text(c.open), text(c.high), text(c.low), text(c.close), text(c.volume), t + step - 1, text(quote), c.volume > 0 ? 1 : 0, text(c.volume / 2), text(quote / 2), '0']);
    }
    return { status: 200, body: rows };
  };
}

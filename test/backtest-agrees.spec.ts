/**
 * The backtest agrees with the bot. One price path, as candles: the candles' stated paths
 * (open → low → high → close rising, open → high → low → close falling) written out as a PAPER_PRICES
 * CSV, one row per print, replayed through the paper exchange and the real runner of the real app;
 * and the same candles through the backtest. Same fills (side, price, amount, fee, in order), same
 * fees, same realised profit to the cent — spot, and futures with leverage.
 */
import { splitSymbol, type PaperExchangeProvider, type PaperVenue } from '@gridrocket/exchanges';
import { applyFills, desiredOrders, initialState, type GridConfig, type MarketRules } from '@gridrocket/trading/grid';
import { engineBotId, toEngineFill } from '@gridrocket/trading';
import { candlePath, paperTerms, runBacktest, toSeries, type Candle } from '@gridrocket/backtest';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { fourHourCandles, startPaperApp, type PaperApp } from './support/paper-app';

jest.setTimeout(180_000);

const H = 3_600_000;
const T0 = 1_700_000_000_000;

// Hand-made candles that cross single rungs, gap through all of them, take profits inside a candle,
// re-arm a rung at a price it crosses at once, and end with a position open.
const SOL: Array<[number, number, number, number]> = [
  [141, 142, 139.5, 140.5],
  [140.5, 143, 137.5, 142.8],
  [142.8, 143.5, 133, 133.5],
  [133.5, 140, 133.2, 139.5],
  [139.5, 139.8, 135.9, 136.2],
  [136.2, 141, 136, 140.5],
  [140.5, 140.6, 138.5, 139],
];
const LTC = SOL.map((c) => c.map((p) => Math.round((p * 90) / 140 * 100) / 100) as [number, number, number, number]);

const toCandles = (rows: Array<[number, number, number, number]>): Candle[] => fourHourCandles(rows, T0);

/** One CSV row per print of each candle's path, an hour apart (the app's own feed driver never gets there). */
function csvRows(symbol: string, candles: Candle[]): string[] {
  return candles.flatMap((c) => candlePath(c).map((p, k) => `${c.time + k * H},Binance,${symbol},${p}`));
}

const SPOT: GridConfig = { botType: 'Spot', numOfOrders: 4, orderSize: 0.5, interval: 2, entryPrice: 140, takeProfit: 1.5, leverage: 1 };
const FUT: GridConfig = { botType: 'Futures', numOfOrders: 3, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2, leverage: 5 };

describe('the backtest agrees with the bot on the paper exchange', () => {
  let paper: PaperApp;
  let app: PaperApp['app'];
  let venue: PaperVenue;
  let provider: PaperExchangeProvider;

  beforeAll(async () => {
    paper = await startPaperApp([...csvRows('SOLUSDT', toCandles(SOL)), ...csvRows('LTCUSDT', toCandles(LTC))], T0);
    ({ app, venue, provider } = paper);
  });
  afterAll(() => paper?.close());

  it('spot and futures: same fills, fees and profit to the cent', async () => {
    const c = new Client(app.url);
    const uid = (await c.signUp('agree@example.com')).uid as string;
    await c.addKey(uid); // a bot starts only with a key for its exchange (paper mode too)
    const bots = [
      { config: SPOT, symbol: 'SOLUSDT', market: 'spot' as const, candles: toCandles(SOL) },
      { config: FUT, symbol: 'LTCUSDT', market: 'futures' as const, candles: toCandles(LTC) },
    ];
    type Started = (typeof bots)[number] & { id: string; port: Awaited<ReturnType<PaperExchangeProvider['for']>>; rules: MarketRules };
    const started: Started[] = [];
    for (const b of bots) {
      const created = await c.post('/api/bots', { exchange: 'Binance', symbol: b.symbol, ...b.config });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect((await c.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
      const port = await provider.for({ userId: uid, exchange: 'Binance', market: b.market });
      const rules: MarketRules = await port.marketRules(b.symbol);
      started.push({ ...b, id, port, rules });
    }
    await until('running', async () => {
      for (const b of started) if ((await c.get(`/api/bot-details/${b.id}`)).body.botstatus !== true) return false;
      return true;
    }, 30_000);

    // After every print, wait until each bot has converged: its open orders are exactly what the engine
    // rebuilt from the exchange's own fills wants.
    const converged = async () => {
      for (const b of started) {
        const fills = await b.port.recentFills(b.symbol, 0);
        const state = applyFills(initialState(b.config, b.rules, engineBotId(b.id, 1)), fills.map((f) => toEngineFill(f, splitSymbol(b.symbol).base)));
        const want = desiredOrders(b.config, b.rules, state).map((o) => `${o.clientOrderId} ${o.price} ${o.amount}`).sort();
        const open = (await b.port.openOrders(b.symbol)).map((o) => `${o.clientOrderId} ${o.price} ${o.amount}`).sort();
        if (JSON.stringify(want) !== JSON.stringify(open)) return false;
      }
      return true;
    };
    await until('converged at start', converged, 30_000);
    for (let k = 1; k < SOL.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      await until(`converged after print ${k}`, converged, 30_000);
    }

    for (const b of started) {
      const bt = runBacktest(toSeries(b.candles), { ...paperTerms({ exchange: 'Binance', market: b.market, symbol: b.symbol }), config: b.config, rules: b.rules, recordFills: true });
      const exchangeFills = (await b.port.recentFills(b.symbol, 0)).map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`);
      expect(bt.fillLog!.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(exchangeFills);
      expect(exchangeFills.length).toBeGreaterThanOrEqual(b.market === 'spot' ? 12 : 6);
      const fees = (await b.port.recentFills(b.symbol, 0)).reduce((s, f) => s + f.fee, 0);
      expect(Math.round(bt.fees * 100)).toBe(Math.round(fees * 100));
      expect(bt.fees).toBeCloseTo(fees, 8);
      const profit = await until('profit recorded', async () => {
        const d = (await c.get(`/api/bot-details/${b.id}`)).body;
        return d.profit === bt.profit && d.profit;
      }, 30_000).catch(async () => (await c.get(`/api/bot-details/${b.id}`)).body.profit);
      expect(Math.round(profit * 100)).toBe(Math.round(bt.profit * 100));
      expect(profit).toBe(bt.profit);
      expect(bt.cycles).toBeGreaterThanOrEqual(2);
    }
  });
});

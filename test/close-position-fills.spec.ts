/**
 * Issue 40: a stop that sells the position ("stop and sell", a signal's "sell it first": closePosition)
 * records its sale. Every style (a long spot ladder, a short futures ladder, a neutral futures grid, an
 * infinity spot grid) is traded by the runner, then stopped with cancel-all and close-position, on the paper
 * exchange and through the ccxt adapter against the Binance spot and USDⓈ-M stand-ins. Each close is one
 * market order under its fixed id, filled once on the venue; its fill is in the history once
 * (PositionClosed, with what it realised on the engine's rules, and a ProfitRealized), and the figures'
 * realised P&L, the bot list's profit (GET /bots), the trades list and the FIFO lots all have it, to the
 * cent, as worked out by hand below. Before, the sale was recorded nowhere: the bot's profit and its
 * realised P&L were those before the stop.
 *
 * Fees: Binance spot 0.1 % maker and taker, a buy's fee taken in the coin bought (the bot holds the net
 * amount; its quote value is what the fee cost); USDⓈ-M 0.02 % maker, 0.05 % taker. The resting orders fill
 * as makers at their price, the close as a taker at the price now.
 */
import { join } from 'node:path';
import { CcxtExchangeProvider, CsvReplayFeed, PaperVenue, type ExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { toBotView, type BotConfig, type LiveBot } from '@gridrocket/bots';
import { botFigures, fifoLots, moneyEntryFrom, roundMoney, tradeRow, type MoneyFill } from '@gridrocket/trading';
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(120_000);

const KEY = { userId: 'erin', apiKey: 'erin-key-0001', secret: 'erin-secret-0001', passphrase: 'erin-pass' };

interface Case {
  name: string;
  market: 'spot' | 'futures';
  config: BotConfig;
  /** The prices of the bot's symbol, one a second from T (the first: before the start). */
  prices: number[];
  /** The orders resting once it has started, before the price moves. */
  resting: number;
  /** How many opening fills it has made after each price of the path (the stop comes after the last). */
  fills: number[];
  /** The close's fill on the venue and what it realised, by hand; the bot's realised P&L after it. */
  close: { side: 'buy' | 'sell'; price: number; amount: number; fee: number; profit: number };
  realised: number;
}

const CASES: Case[] = [
  {
    // buys 0.01 at 60,000 and at 59,000 (each fee 0.00001 BTC, worth 0.6 and 0.59): holds 0.01998 that cost 1188.81 + 1.19;
    // the close sells 0.01998 at 58,500: 1168.83 less 1.16883 → 1168.83 − 1.16883 − 1188.81 − 1.19 = −22.33883
    name: 'a long spot ladder',
    market: 'spot',
    config: { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1 },
    prices: [61000, 59500, 58500],
    resting: 2,
    fills: [1, 2],
    close: { side: 'sell', price: 58500, amount: 0.01998, fee: 1.16883, profit: -22.33883 },
    realised: -22.33883,
  },
  {
    // sells 0.5 at 100 and at 102 (fees 0.01, 0.0102): short 1 for 101 received; the close buys 1 back at 102.5
    // (fee 0.05125): 101 − 102.5 − 0.0202 − 0.05125 = −1.57145
    name: 'a short futures ladder',
    market: 'futures',
    config: { exchange: 'Binance', symbol: 'LTCUSDT', direction: 'short', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 100, takeProfit: 2, leverage: 5 },
    prices: [99, 100.5, 102.5],
    resting: 2,
    fills: [1, 2],
    close: { side: 'buy', price: 102.5, amount: 1, fee: 0.05125, profit: -1.57145 },
    realised: -1.57145,
  },
  {
    // lines 0.48, 0.49 | 0.5 | 0.51, 0.52: the buy of 20 at 0.49 fills (fee 0.00196), its answer rests at 0.5; the close
    // sells the 20 at 0.485 (fee 0.00485): (0.485 − 0.49) × 20 − 0.00196 − 0.00485 = −0.10681
    name: 'a neutral futures grid',
    market: 'futures',
    config: { exchange: 'Binance', symbol: 'XRPUSDT', direction: 'neutral', numOfOrders: 2, orderSize: 20, interval: 0.01, entryPrice: 0.5, takeProfit: 1, leverage: 5 },
    prices: [0.5, 0.485],
    resting: 4,
    fills: [1],
    close: { side: 'sell', price: 0.485, amount: 20, fee: 0.00485, profit: -0.10681 },
    realised: -0.10681,
  },
  {
    // the initial buy of 100 USDT at 2,000: 0.05 ETH less its fee 0.00005 ETH (worth 0.1) → holds 0.04995 that cost 99.9 + 0.1;
    // the close sells ⌊0.04995⌋ = 0.0499 at 1,990 (99.301, fee 0.099301) on its share of the cost: 99.8 and
    // 0.1 × 0.0499 ÷ 0.04995 = 0.0998999: 99.301 − 99.8 − 0.0998999 − 0.099301 = −0.6982009 (0.00005 ETH stays: dust)
    name: 'an infinity spot grid',
    market: 'spot',
    config: { exchange: 'Binance', symbol: 'ETHUSDT', style: 'infinity', entryPrice: 2000, stepPercent: 2, quoteValue: 20, lowerPrice: 1900, initialQuote: 100, numOfOrders: 0, orderSize: 0, interval: 0, takeProfit: 0, leverage: 1 },
    prices: [2020, 1990],
    resting: 1,
    fills: [1],
    close: { side: 'sell', price: 1990, amount: 0.0499, fee: 0.099301, profit: -0.6982009 },
    realised: -0.6982009,
  },
];

/** Case k's i-th price: its first at the start (1 s), the others in a window of its own (the venue's time only goes forward). */
const at = (k: number, i: number) => (i === 0 ? 1000 : (k + 1) * 10_000 + i * 1000);
const CSV = ['ms,exchange,symbol,price', ...CASES.flatMap((c, k) => c.prices.map((p, i) => `${at(k, i)},Binance,${c.config.symbol},${p}`))].join('\n');

describe.each(['paper', 'ccxt'] as const)('a stop that sells the position records its sale (%s)', (via) => {
  let world: RunnerWorld;
  const standIns: VenueStandIn[] = [];
  let exchanges: ExchangeProvider | null = null;
  beforeAll(async () => {
    // through the ccxt adapter the venue stamps its orders and fills with the wall clock, as a live venue does
    // (the runner's fill recovery asks for windows up to now); on paper it keeps its feed's time
    world = new RunnerWorld((dir) => new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV), ...(via === 'ccxt' ? { clock: Date.now } : {}) }));
    world.venue.advanceTo(1000);
    if (via === 'ccxt') {
      for (const market of ['spot', 'futures'] as const) standIns.push(await startVenueStandIn(world.venue, 'Binance', market, [KEY]));
      const byId = Object.fromEntries(standIns.map((s) => [s.id, s.origin]));
      exchanges = new CcxtExchangeProvider({
        mode: 'live',
        apiOrigin: (id) => byId[id],
        resolveCredential: async (userId) => (userId === KEY.userId ? { apiKey: KEY.apiKey, secret: KEY.secret, passphrase: KEY.passphrase } : null),
        pricePollMs: 200,
        retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
        timeoutMs: 5000,
        enableRateLimit: false,
      });
    }
    await world.runner({ ...(exchanges ? { exchanges } : {}), pollMs: 200, watchdogMs: 0 });
  });
  afterAll(async () => {
    await world.close();
    await exchanges?.close();
    await Promise.all(standIns.map((s) => s.close()));
  });

  it.each(CASES.map((c, k) => ({ ...c, k })))('$name', async (c) => {
    const botType = c.market === 'spot' ? 'Spot' : 'Futures';
    const id = await world.create(KEY.userId, botType, c.config);
    await world.run({ type: 'StartBot', botId: id, userId: KEY.userId }, KEY.userId);
    const types = () => world.types(id);
    const port = await world.paper.for({ userId: KEY.userId, exchange: 'Binance', market: c.market });
    await until('running', async () => (await types()).includes('BotStarted') && (await port.openOrders(c.config.symbol)).length === c.resting, 30_000);
    for (let i = 1; i < c.prices.length; i++) {
      world.venue.advanceTo(at(c.k, i));
      await until(`${c.fills[i - 1]} opening fills recorded`, async () => (await types()).filter((t) => t === 'OrderFilled').length === c.fills[i - 1], 30_000);
    }

    await world.run({ type: 'StopBot', botId: id, userId: KEY.userId, cancelAllOrders: true, closePosition: true }, KEY.userId);
    await until('stopped', async () => (await types()).includes('BotStopped'), 30_000);

    // the venue sold (bought back) once, under the close's fixed id
    const closes = (await port.recentFills(c.config.symbol, 0)).filter((f) => f.clientOrderId.endsWith('-close'));
    expect(closes.map((f) => ({ side: f.side, price: f.price, amount: f.amount, fee: roundMoney(f.fee) }))).toEqual([{ side: c.close.side, price: c.close.price, amount: c.close.amount, fee: c.close.fee }]);
    if (c.market === 'futures') expect(await port.positions(c.config.symbol)).toEqual([]);

    // its fill is in the history once, with what it realised, and its profit
    const history = await world.history(id);
    const closed = history.filter((e) => e.type === 'PositionClosed').map((e) => e.data as Record<string, unknown>);
    expect(closed).toEqual([expect.objectContaining({ fillId: closes[0].fillId, side: c.close.side, price: c.close.price, amount: c.close.amount, profit: c.close.profit })]);
    expect(roundMoney(closed[0].fee as number)).toBe(c.close.fee);
    const profits = history.filter((e) => e.type === 'ProfitRealized').map((e) => e.data as { amount: number; fillId?: string });
    expect(profits.filter((p) => p.fillId === closes[0].fillId).map((p) => p.amount)).toEqual([c.close.profit]);
    // PositionClosed and its profit come in the stop's append, before BotStopped
    expect(history.findIndex((e) => e.type === 'PositionClosed')).toBeLessThan(history.findIndex((e) => e.type === 'BotStopped'));

    // the figures' realised P&L, the bot list's profit, the trades list and the FIFO lots say the same
    const events = history.map((e) => ({ type: e.type, data: e.data, at: Date.parse(e.metadata.occurredAt) }));
    const figures = botFigures(events, c.close.price, Date.now());
    expect({ realised: figures.realisedPnl, position: figures.position }).toEqual({ realised: c.realised, position: 0 });
    expect(toBotView((await world.state(id)) as LiveBot).profit).toBe(c.realised);
    const fills = history.map((e, seq) => moneyEntryFrom(e.type, e.data, seq, Date.parse(e.metadata.occurredAt))).filter((m): m is MoneyFill => m?.kind === 'fill');
    expect(fills.filter((f) => f.role === 'close').map((f) => tradeRow(f, null))).toEqual([expect.objectContaining({ role: 'close', side: c.close.side, price: c.close.price, amount: c.close.amount, profit: c.close.profit })]);
    expect(roundMoney(fifoLots(fills).rows.reduce((t, r) => t + r.profit, 0))).toBe(c.realised);
  });
});

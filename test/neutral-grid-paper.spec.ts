/**
 * The neutral futures grid (issue 32) on the paper exchange: a PAPER_PRICES-style CSV (one row per print
 * of each candle's path, as test/short-grid-paper.spec.ts writes it) replayed on the paper venue with
 * Binance USDⓈ-M's LTCUSDT rules, the neutral engine driven by a small loop that does what the runner does
 * (apply the venue's fills in order, then cancel what is not wanted and place what is missing, every
 * order with its reduce-only flag). The venue refuses a reduce-only order that would not reduce the
 * position, so "nothing refused" is checked by the placements themselves. The fills, fees, position and
 * profit are the ones worked out by hand below, and the neutral backtest of the same candles gives the
 * same fills and agrees to the cent.
 *
 * The same loop runs through the ccxt adapter against the Binance USDⓈ-M and Kucoin futures stand-ins,
 * which refuse a reduce-only order that would not reduce in each venue's words (-2022, 400100;
 * libs/exchanges/src/testing/standin/reduce-only.standin.spec.ts has the sources): every placement is taken.
 *
 * The loop stands in for the runner, so this proves the engine and the venues; the app's runner trading
 * the same example is test/neutral-grid-runner.spec.ts, and its kill -9 test/neutral-grid-crash.spec.ts.
 */
import { CcxtExchange, CsvReplayFeed, PaperExchangeProvider, PaperVenue, splitSymbol, type ExchangePort } from '@gridrocket/exchanges';
import { STUB_KEY } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { MarketRules } from '@gridrocket/trading/grid';
import { initialNeutralState, neutralDesiredOrders, processNeutralFill, type NeutralState } from '@gridrocket/trading/styles/neutral';
import { toEngineFill } from '@gridrocket/trading';
import { candlePath, paperTerms, runNeutralBacktest } from '@gridrocket/backtest';
import { candles, EXPECTED_FEES, EXPECTED_FILLS, EXPECTED_PROFIT, H, LTC, NEUTRAL, SYMBOL, T0 } from './support/neutral-example';

jest.setTimeout(120_000);

const show = (o: { side: string; price: number; amount: number; reduceOnly?: boolean }) => `${o.side} ${o.price} ${o.amount}${o.reduceOnly ? ' reduce-only' : ''}`;

/**
 * Runs the neutral grid on a venue (the paper port, or the ccxt adapter against a venue stand-in) over the
 * candles' prints: what the runner's loop does, apply the venue's fills in order, then cancel what is not
 * wanted and place what is missing, each order with its reduce-only flag. A refused placement is recorded.
 */
async function runNeutral(exchange: 'Binance' | 'Kucoin', via: 'paper' | 'ccxt', crashes = false) {
  const rows = candles.flatMap((c) => candlePath(c).map((p, k) => `${c.time + k * H},${exchange},${SYMBOL},${p}`));
  const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(['ms,exchange,symbol,price', ...rows].join('\n')) });
  let standIn: VenueStandIn | null = null;
  try {
    venue.advanceTo(T0);
    let port: ExchangePort;
    if (via === 'paper') port = await new PaperExchangeProvider(venue).for({ userId: 'u1', exchange, market: 'futures' });
    else {
      standIn = await startVenueStandIn(venue, exchange, 'futures', [{ ...STUB_KEY, userId: 'u1' }], { now: () => venue.nowMs() });
      port = new CcxtExchange({ exchange, market: 'futures', mode: 'live', credential: STUB_KEY, apiOrigin: standIn.origin, timeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 5 }, clock: () => venue.nowMs() });
    }
    await port.setLeverage(SYMBOL, NEUTRAL.leverage, 'isolated'); // as the runner's prepareFutures does
    const r = await port.marketRules(SYMBOL);
    const rules: MarketRules = { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount };
    const walletBefore = (await port.balances('futures')).find((b) => b.symbol === 'USDT')!.balance;
    let state: NeutralState = initialNeutralState(NEUTRAL, rules, 'neutral-bot');
    let applied = new Set<string>();
    let placedIds = new Set<string>();
    const refused: string[] = [];
    const placedReduceOnly = new Map<string, boolean>();
    let placements = 0;
    const positionsSeen: Array<[number, number]> = [];

    const applyFills = async () => {
      for (const f of await port.recentFills(SYMBOL, T0 - 1)) {
        if (applied.has(f.fillId)) continue;
        applied.add(f.fillId);
        state = processNeutralFill(state, toEngineFill(f, splitSymbol(SYMBOL).base)).state;
      }
    };
    /** `crashAfter`: the process dies after this many placements (its memory is lost, the venue keeps what it did). */
    const converge = async (crashAfter = Infinity) => {
      for (let i = 0; i < 10; i++) {
        await applyFills();
        const want = neutralDesiredOrders(rules, state);
        const open = await port.openOrders(SYMBOL);
        const wanted = new Set(want.map((o) => o.clientOrderId));
        const resting = new Set(open.map((o) => o.clientOrderId));
        const cancel = open.filter((o) => !wanted.has(o.clientOrderId));
        const place = want.filter((o) => !resting.has(o.clientOrderId) && !placedIds.has(o.clientOrderId));
        if (cancel.length === 0 && place.length === 0) return;
        for (const o of cancel) await port.cancelOrder(SYMBOL, o.clientOrderId);
        await applyFills();
        for (const o of place) {
          if (crashAfter-- <= 0) return;
          placedIds.add(o.clientOrderId);
          placedReduceOnly.set(o.clientOrderId, o.reduceOnly);
          placements++;
          await port.createLimitOrder({ symbol: SYMBOL, side: o.side, price: o.price, amount: o.amount, clientOrderId: o.clientOrderId, reduceOnly: o.reduceOnly }).catch((e: Error) => refused.push(`${o.side} ${o.price}: ${e.message}`));
        }
      }
      throw new Error('the grid did not settle');
    };

    await converge();
    const atStart = (await port.openOrders(SYMBOL)).map(show).sort();
    for (let k = 1; k < LTC.length * 4; k++) {
      venue.advanceTo(T0 + k * H);
      if (crashes) {
        // killed half-way through placing this print's orders (before placing any on odd prints): the
        // restart rebuilds the grid from the venue's fills (the runner: its recorded fills plus the missed
        // ones) and converges again; deterministic ids let it adopt what rests and place only what is missing
        await converge(k % 2);
        state = initialNeutralState(NEUTRAL, rules, 'neutral-bot');
        applied = new Set();
        placedIds = new Set();
      }
      await converge();
      // the bot's position and the venue's, at every print
      positionsSeen.push([(await port.positions(SYMBOL)).reduce((t, p) => t + p.amount, 0), state.position]);
    }
    const fills = await port.recentFills(SYMBOL, T0 - 1);
    const walletAfter = (await port.balances('futures')).find((b) => b.symbol === 'USDT')!.balance;
    return {
      rules, state, refused, atStart, positionsSeen, placements,
      fills: fills.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`),
      flags: fills.map((f) => `${f.side} ${f.price} ${placedReduceOnly.get(f.clientOrderId) ? 'reduce-only' : 'opens'}`),
      fees: fills.reduce((t, f) => t + f.fee, 0),
      positions: (await port.positions(SYMBOL)).map((p) => [p.amount, p.entryPrice]),
      open: (await port.openOrders(SYMBOL)).map(show).sort(),
      wallet: walletAfter - walletBefore,
    };
  } finally {
    await standIn?.close();
    venue.close();
  }
}

const FLAGS = ['buy 90 opens', 'sell 92 reduce-only', 'sell 94 opens', 'sell 96 opens', 'buy 94 reduce-only', 'buy 92 reduce-only', 'buy 88 opens', 'buy 90 opens'];
const START = ['buy 88 0.5', 'buy 90 0.5', 'sell 94 0.5', 'sell 96 0.5'];
const END = ['sell 90 0.5 reduce-only', 'sell 92 0.5 reduce-only', 'sell 94 0.5', 'sell 96 0.5'];

describe('a neutral futures grid on the paper exchange', () => {
  it('buys below and sells above the reference, answers each fill one line away with the closes reduce-only: the hand-computed fills, fees, position and profit, and the backtest agrees', async () => {
    const run = await runNeutral('Binance', 'paper');
    expect(run.atStart).toEqual(START);
    expect(run.refused).toEqual([]);
    expect(run.fills).toEqual(EXPECTED_FILLS);
    // every close was placed reduce-only, every opening order not
    expect(run.flags).toEqual(FLAGS);
    expect(run.fees).toBeCloseTo(EXPECTED_FEES, 8);
    expect(run.state.profit).toBe(EXPECTED_PROFIT);
    expect(run.state.feesPaid).toBe(EXPECTED_FEES);
    expect(run.state.pairsCompleted).toBe(3);
    for (const [venuePosition, bot] of run.positionsSeen) expect(venuePosition).toBeCloseTo(bot, 9);
    // the venue: long 1 at 89; the sells at 90 and 92 close it (reduce-only, 0.5 + 0.5 = the long), 94 and 96 open a short
    expect(run.positions).toEqual([[1, 89]]);
    expect(run.open).toEqual(END);
    expect(run.wallet).toBeCloseTo(EXPECTED_PROFIT - 0.009 - 0.0088, 8);

    // the backtest of the same candles with the paper venue's terms: the same fills, the same figures to the cent
    const terms = paperTerms({ exchange: 'Binance', market: 'futures', symbol: SYMBOL });
    const bt = runNeutralBacktest(candles, { config: NEUTRAL, rules: terms.rules, feeBps: terms.feeBps, takerFeeBps: terms.takerFeeBps, crossingFill: terms.crossingFill });
    expect(bt.fills.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(EXPECTED_FILLS);
    expect(Math.round(bt.profit * 100)).toBe(Math.round(EXPECTED_PROFIT * 100));
    expect(bt.profit).toBe(run.state.profit);
    expect(bt.fees).toBe(run.state.feesPaid);
    expect(bt.position).toBe(1);
  });
});

describe('a neutral futures grid whose process dies at every print', () => {
  it('killed half-way through placing at each of the 23 prints and rebuilt from the venue: nothing doubled or lost, the same fills, position and profit as without a crash', async () => {
    const calm = await runNeutral('Binance', 'paper');
    const killed = await runNeutral('Binance', 'paper', true);
    expect(killed.refused).toEqual([]); // no order placed twice (the venue refuses a repeated client order id)
    expect(killed.placements).toBe(calm.placements); // and none missing
    expect(killed.fills).toEqual(EXPECTED_FILLS);
    expect(killed.flags).toEqual(FLAGS);
    expect(killed.state.profit).toBe(EXPECTED_PROFIT);
    expect(killed.positions).toEqual([[1, 89]]);
    expect(killed.open).toEqual(END);
    for (const [venuePosition, bot] of killed.positionsSeen) expect(venuePosition).toBeCloseTo(bot, 9);
  });
});

describe('a neutral futures grid through the ccxt adapter against the venue stand-ins', () => {
  it('Binance USDⓈ-M (reduce-only refused with -2022 when it would not reduce): the same fills and flags as on paper, nothing refused', async () => {
    const run = await runNeutral('Binance', 'ccxt');
    expect(run.refused).toEqual([]);
    expect(run.atStart).toEqual(START);
    expect(run.fills).toEqual(EXPECTED_FILLS);
    expect(run.flags).toEqual(FLAGS);
    expect(run.state.profit).toBe(EXPECTED_PROFIT);
    for (const [venuePosition, bot] of run.positionsSeen) expect(venuePosition).toBeCloseTo(bot, 9);
    expect(run.positions).toEqual([[1, 89]]);
    expect(run.open).toEqual(END);
  });

  it('Kucoin futures (reduce-only refused with 400100 when it would not reduce): the same orders filled, its own fees, nothing refused, and the backtest with its terms agrees', async () => {
    const run = await runNeutral('Kucoin', 'ccxt');
    expect(run.refused).toEqual([]);
    expect(run.atStart).toEqual(START);
    expect(run.fills.map((f) => f.replace(/ fee .*/, ''))).toEqual(EXPECTED_FILLS.map((f) => f.replace(/ fee .*/, '')));
    expect(run.flags).toEqual(FLAGS);
    for (const [venuePosition, bot] of run.positionsSeen) expect(venuePosition).toBeCloseTo(bot, 9);
    expect(run.positions).toEqual([[1, 89]]);
    expect(run.open).toEqual(END);
    // the pairs earn 3 × 0.5 × 2 = 3 less the fees of the six fills that made them, at Kucoin's maker rate
    const terms = paperTerms({ exchange: 'Kucoin', market: 'futures', symbol: SYMBOL });
    const rate = terms.feeBps / 10_000;
    const pairFees = [90, 92, 94, 96, 94, 92].reduce((t, p) => t + p * 0.5 * rate, 0);
    expect(run.state.profit).toBeCloseTo(3 - pairFees, 8);
    const bt = runNeutralBacktest(candles, { config: NEUTRAL, rules: terms.rules, feeBps: terms.feeBps, takerFeeBps: terms.takerFeeBps, crossingFill: terms.crossingFill });
    expect(bt.fills.map((f) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`)).toEqual(run.fills);
    expect(Math.round(bt.profit * 100)).toBe(Math.round(run.state.profit * 100));
  });
});

/**
 * Issue 40: a stop that sells the position records its sale exactly once, across a kill -9. The runner is its
 * own OS process (crash-runner.child.ts) and the paper venue lives in THIS process, reached over RPC
 * (support/slow-paper-crash.ts). The stop's market close is carried out on the venue and its answer held
 * back: the runner is killed then, after the sale and before its record (nothing of the stop is in the history
 * yet: its one append comes after). The next runner takes the bot over, still stopping: it finds the close
 * under its fixed client order id (never sold twice), reads its fill from the venue, and records it once, with
 * what it realised, in the stop's append.
 *
 * By hand (Binance spot: 0.1 %, a buy's fee in the coin bought): buys of 0.01 at 60,000 and 59,000 hold
 * 0.00999 each (fees worth 0.6 and 0.59), cost 1188.81; the close sells 0.01998 at 58,500: 1168.83 less its
 * fee 1.16883 → 1168.83 − 1.16883 − 1188.81 − 1.19 = −22.33883.
 */
import { roundMoney } from '@gridrocket/trading';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { randomUUID } from 'node:crypto';
import { SlowPaperCrash, until } from './support/slow-paper-crash';

jest.setTimeout(120_000);

const PATH = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,59500', '3000,Binance,BTCUSDT,58500'].join('\n');

describe('a stop that sells survives a kill -9 between the sale and its record', () => {
  let w: SlowPaperCrash;
  /** While set: the close's answer is held back here (the runner waits for it), and this says it was placed. */
  let holdClose: { placed: () => void; release: Promise<void> } | null = null;
  let releaseHold: () => void = () => undefined;
  beforeEach(async () => {
    w = await SlowPaperCrash.start('gr-close-crash-', PATH, async (method, args) => {
      const req = args[0] as { clientOrderId?: string } | undefined;
      if (method !== 'createMarketOrder' || !holdClose || !req?.clientOrderId?.endsWith('-close')) return;
      holdClose.placed();
      await holdClose.release;
    });
  });
  afterEach(async () => {
    releaseHold();
    await w.close();
  });

  it('the next runner records the close\'s fill once, with its loss, and never sells twice', async () => {
    const userId = 'closer';
    const id = await w.createAndStart(userId, { symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1 });
    for (const [ms, fills] of [[2000, 1], [3000, 2]] as const) {
      w.venue.advanceTo(ms);
      await until(`${fills} buys and the take-profit`, async () => {
        const n = (await w.stream(id)).filter((e) => e.type === 'OrderFilled').length;
        return n === fills && (await w.own(userId, id, 'BTCUSDT')).some((o) => o.side === 'sell' && o.amount === roundMoney(0.00999 * fills));
      });
    }

    let placed!: () => void;
    const wasPlaced = new Promise<void>((r) => (placed = r));
    holdClose = { placed, release: new Promise<void>((r) => (releaseHold = r)) };
    await new BotCommandRunner(w.events).run({ type: 'StopBot', botId: id, userId, cancelAllOrders: true, closePosition: true }, { userId, correlationId: randomUUID() });
    await wasPlaced;
    // the sale is on the venue, the runner waits for its answer: killed there
    const p = await w.port(userId);
    const closeFills = async () => (await p.recentFills('BTCUSDT', 0)).filter((f) => f.clientOrderId.endsWith('-close'));
    expect((await closeFills()).map((f) => `${f.side} ${f.amount} @ ${f.price}`)).toEqual(['sell 0.01998 @ 58500']);
    await w.kill();
    const before = (await w.stream(id)).map((e) => e.type);
    expect({ stopped: before.includes('BotStopped'), closed: before.includes('PositionClosed') }).toEqual({ stopped: false, closed: false });

    holdClose = null;
    releaseHold();
    await w.restart();
    await until('stopped by the next runner', async () => (await w.stream(id)).some((e) => e.type === 'BotStopped'));
    const history = await w.stream(id);
    const [fill] = await closeFills();
    expect((await closeFills()).length).toBe(1); // sold once, never twice
    const closed = history.filter((e) => e.type === 'PositionClosed').map((e) => e.data as Record<string, unknown>);
    expect(closed).toEqual([expect.objectContaining({ fillId: fill.fillId, side: 'sell', price: 58500, amount: 0.01998, fee: 1.16883, profit: -22.33883 })]);
    const profits = history.filter((e) => e.type === 'ProfitRealized').map((e) => e.data as { amount: number; totalProfit: number; fillId?: string });
    expect(profits.filter((x) => x.fillId === fill.fillId).map((x) => x.amount)).toEqual([-22.33883]);
    expect(profits[profits.length - 1].totalProfit).toBe(-22.33883);
    expect(history.filter((e) => e.type === 'BotStopped')).toHaveLength(1);
    expect(await w.own(userId, id, 'BTCUSDT')).toEqual([]);
    expect((await p.balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0).toBeLessThan(0.00001);
  });
});

/**
 * The short grid's stop-loss (issue 32) through the ccxt adapter against the Binance USDⓈ-M stand-in,
 * with a SIGKILL in the middle of it (the machinery of test/risk-crash.spec.ts and the ccxt case of
 * test/runner-crash.spec.ts). A short bot sells its three rungs as the price rises; the price reaches
 * its stop level above the average; the runner is killed as soon as StopLossStarted is recorded; the
 * price falls back while it is down; after the restart the stop-loss finishes once: one market BUY,
 * sent reduce-only (the stand-in refuses a reduce-only order that would not reduce, -2022), the short
 * position flat, nothing left open, the bot stopped with the loss worked out by hand below.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { engineBotId, isOwnClientOrderId, roundMoney, stopLossOrderId } from '@gridrocket/trading';
import { until } from '@gridrocket/shared/testing/until';
import { startVenueStandIn, type StandInKey, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { startCrashRunner } from './support/crash-runner';
import { kill9 } from './support/server-process';

jest.setTimeout(120_000);

// LTCUSDT: the short ladder sells 0.5 at 90, 91 and 92 (average 91, stop level 91 × 1.03 = 93.73 rounded up);
// 94 reaches it; 93 is back below it while the runner is down.
const PATH = ['ms,exchange,symbol,price', '1000,Binance,LTCUSDT,88', '2000,Binance,LTCUSDT,90.5', '3000,Binance,LTCUSDT,91.5', '4000,Binance,LTCUSDT,92.5', '5000,Binance,LTCUSDT,94', '6000,Binance,LTCUSDT,93'].join('\n');
const KEY: StandInKey = { apiKey: 'carol-key-0003', secret: 'carol-secret-0003', passphrase: 'carol-pass', userId: 'carol' };

describe('the short grid\'s stop-loss survives SIGKILL on the ccxt adapter (Binance futures stand-in)', () => {
  let dir: string;
  let venue: PaperVenue;
  let events: SqliteEventStore;
  let standIn: VenueStandIn;
  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child) await kill9(child);
    await standIn?.close();
    await events?.close();
    venue?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('killed as soon as the stop-loss is recorded: after the restart one reduce-only market buy closes the short, the bot stops with the loss', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-short-sl-'));
    venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(PATH), clock: Date.now });
    const provider = new PaperExchangeProvider(venue);
    events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    venue.advanceTo(1000);
    standIn = await startVenueStandIn(venue, 'Binance', 'futures', [KEY]);
    const env = {
      STANDIN_ORIGINS: JSON.stringify({ [standIn.id]: standIn.origin }),
      STANDIN_KEYS: JSON.stringify({ [KEY.userId]: { apiKey: KEY.apiKey, secret: KEY.secret, passphrase: KEY.passphrase } }),
    };
    child = await startCrashRunner(dir, 'http://127.0.0.1:1', env);
    const port = await provider.for({ userId: KEY.userId, exchange: 'Binance', market: 'futures' });
    const usdtBefore = (await port.balances()).find((b) => b.symbol === 'USDT')!.balance;

    const id = randomUUID();
    const ctx = { userId: KEY.userId, correlationId: randomUUID() };
    const cmd = new BotCommandRunner(events);
    const config = { exchange: 'Binance' as const, symbol: 'LTCUSDT', numOfOrders: 3, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1, leverage: 3, stopLossPercent: 3, direction: 'short' as const };
    await cmd.run({ type: 'CreateBot', botId: id, userId: KEY.userId, botType: 'Futures', config }, ctx);
    await cmd.run({ type: 'StartBot', botId: id, userId: KEY.userId }, ctx);
    const stream = () => events.readStream(`bot-${id}`);
    const engineId = engineBotId(id, 1);
    const own = async () => (await port.openOrders('LTCUSDT')).filter((o) => isOwnClientOrderId(engineId, o.clientOrderId));
    await until('ladder of sells', async () => (await own()).filter((o) => o.side === 'sell').length === 3, 60_000);

    for (const [ms, sold] of [[2000, 1], [3000, 2], [4000, 3]] as const) {
      venue.advanceTo(ms);
      await until(`${sold} sold and covered`, async () => {
        const fills = (await stream()).filter((e) => e.type === 'OrderFilled').length;
        const tp = (await own()).some((o) => o.side === 'buy' && o.amount === 0.5 * sold && o.reduceOnly === true);
        return fills === sold && tp;
      }, 60_000);
    }
    expect(await port.positions('LTCUSDT')).toMatchObject([{ amount: -1.5, entryPrice: 91 }]);

    venue.advanceTo(5000); // 94 ≥ 93.73: the stop-loss begins
    await until('StopLossStarted', async () => (await stream()).some((e) => e.type === 'StopLossStarted'), 60_000, 1);
    await kill9(child!);
    child = null;
    const halfDone = !(await stream()).some((e) => e.type === 'BotFailed');
    const sl = stopLossOrderId(engineId, 1);
    const boughtBeforeKill = (await port.orderByClientId('LTCUSDT', sl)) !== null;
    venue.advanceTo(6000); // 93: below the stop level again while the runner is down
    child = await startCrashRunner(dir, 'http://127.0.0.1:1', env);
    const failed = await until('stopped by the stop-loss', async () => (await stream()).find((e) => e.type === 'BotFailed'), 60_000);

    const fills = (await port.recentFills('LTCUSDT', 0)).filter((f) => f.clientOrderId === sl);
    expect(fills).toHaveLength(1); // bought back once, never twice
    const at = boughtBeforeKill ? 94 : 93;
    expect(fills[0]).toMatchObject({ side: 'buy', price: at, amount: 1.5 });
    expect(await port.orderByClientId('LTCUSDT', sl)).toMatchObject({ side: 'buy', reduceOnly: true });
    const after = await stream();
    expect(after.filter((e) => e.type === 'StopLossStarted')).toHaveLength(1);
    expect(after.filter((e) => e.type === 'StopLossTriggered').map((e) => (e.data as { side: string }).side)).toEqual(['buy']);
    // received 45 + 45.5 + 46 = 136.5 (maker fees 0.009 + 0.0091 + 0.0092 = 0.0273); bought back 1.5 × at,
    // taker fee 1.5 × at × 0.0005: at 93, 139.5 − 136.5 + 0.0273 + 0.06975 = 3.09705; at 94, 4.5 + 0.0273 + 0.0705 = 4.5978
    const loss = at === 93 ? 3.09705 : 4.5978;
    expect((failed.data as { reason: string }).reason).toBe(`Stop-loss triggered at 94 (stop level 93.73): the short position was bought back at market, loss ${loss} USDT`);
    expect(await own()).toEqual([]);
    expect(await port.positions('LTCUSDT')).toEqual([]);
    const usdtAfter = (await port.balances()).find((b) => b.symbol === 'USDT')!.balance;
    expect(roundMoney(usdtAfter - usdtBefore)).toBe(-loss);
    expect(halfDone).toBe(true);
  });
});

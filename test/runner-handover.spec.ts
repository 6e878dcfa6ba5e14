/**
 * Issue 7, scale-out: two runner instances in one process, one paper venue, one event store, and a
 * test double of the ownership port with which the test moves partitions between them. Running bots
 * change hands (also while prices move in the middle of a hand-over) with no duplicate and no
 * orphaned order, and every exchange fill is recorded exactly once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import { GridRunner, engineBotId, toGridRules } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { isOwnClientOrderId, type GridConfig } from '@gridrocket/trading';
import { MovableOwnership, handOver } from '@gridrocket/trading/testing/movable-ownership';
import { checkGridOnPort } from '@gridrocket/trading/testing/grid-invariants';
import { until } from '@gridrocket/shared/testing/until';
import { closeAll } from './support/close-all';

jest.setTimeout(60_000);

const PRICES = [61000, 59700, 59100, 60400, 58300, 61500, 58900, 57600, 60950, 62000];
const CSV = ['ms,exchange,symbol,price', ...PRICES.map((p, i) => `${1000 + i * 1000},Binance,BTCUSDT,${p}`)].join('\n');

describe('scale-out: two runners hand running bots over through the ownership port', () => {
  let dir: string;
  let venue: PaperVenue;
  let provider: PaperExchangeProvider;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let a: GridRunner;
  let b: GridRunner;
  const ownA = new MovableOwnership(4, [0, 1, 2, 3]);
  const ownB = new MovableOwnership(4, []);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gr-handover-'));
    venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV) });
    provider = new PaperExchangeProvider(venue);
    events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    const common = { events, reads, commands: directCommands(events), exchanges: provider, logger: { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) } };
    a = new GridRunner({ ...common, ownership: ownA, name: 'runner-a', pid: 1001 });
    b = new GridRunner({ ...common, ownership: ownB, name: 'runner-b', pid: 1002 });
  });
  afterAll(async () => {
    await closeAll(a, b, events, reads, venue, dir);
  });

  it('moves partitions back and forth while prices move; no duplicate, no orphan, every fill recorded once', async () => {
    venue.advanceTo(1000);
    await a.start();
    await b.start();

    // 12 bots of 3 users, on one symbol, spread over the 4 partitions
    const bots: { id: string; userId: string; config: GridConfig }[] = [];
    const cmd = new BotCommandRunner(events);
    for (let i = 0; i < 12; i++) {
      const userId = `user-${i % 3}`;
      const id = randomUUID();
      const entry = 60500 - (i % 4) * 400;
      const config: GridConfig = { botType: 'Spot', numOfOrders: 3, orderSize: 0.01, interval: 700, entryPrice: entry, takeProfit: 1, leverage: 1 };
      const ctx = { userId, correlationId: randomUUID() };
      await cmd.run({ type: 'CreateBot', botId: id, userId, botType: 'Spot', config: { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 700, entryPrice: entry, takeProfit: 1, leverage: 1 } }, ctx);
      await cmd.run({ type: 'StartBot', botId: id, userId }, ctx);
      bots.push({ id, userId, config });
    }
    const partitions = new Set(bots.map((x) => ownA.partitionOf(x.id)));
    expect(partitions.size).toBeGreaterThan(1);
    const rules = toGridRules(await (await provider.for({ userId: 'user-0', exchange: 'Binance', market: 'spot' })).marketRules('BTCUSDT'));

    const status = async (id: string) => {
      const s = await events.readStream(`bot-${id}`);
      return s.filter((e) => e.type === 'BotStarted' || e.type === 'BotStopped' || e.type === 'BotFailed').map((e) => e.type);
    };
    await until('all started by A', async () => (await Promise.all(bots.map((x) => status(x.id)))).every((s) => s.length === 1 && s[0] === 'BotStarted'));

    const converged = async () => {
      for (const bot of bots) {
        const port = await provider.for({ userId: bot.userId, exchange: 'Binance', market: 'spot' });
        const check = await checkGridOnPort(port, 'BTCUSDT', bot.config, rules, engineBotId(bot.id, 1));
        if (!check.ok) return false;
      }
      return true;
    };
    const recordedOnce = async () => {
      for (const bot of bots) {
        const port = await provider.for({ userId: bot.userId, exchange: 'Binance', market: 'spot' });
        const prefix = engineBotId(bot.id, 1);
        const exchangeFills = (await port.recentFills('BTCUSDT', 0)).filter((f) => isOwnClientOrderId(prefix, f.clientOrderId)).map((f) => f.fillId).sort();
        const stream = await events.readStream(`bot-${bot.id}`);
        const recorded = stream.filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled').map((e) => (e.data as any).fillId).sort();
        expect(recorded).toEqual(exchangeFills);
        const profits = stream.filter((e) => e.type === 'ProfitRealized');
        expect(profits).toHaveLength(stream.filter((e) => e.type === 'TakeProfitFilled').length);
      }
    };
    await until('initial ladders', converged);
    expect(a.runningBots().sort()).toEqual(bots.map((x) => x.id).sort());
    expect(b.runningBots()).toEqual([]);

    let step = 1;
    const tick = () => venue.advanceTo(1000 + step++ * 1000);

    tick();
    await until('after tick 1', converged);

    // hand partitions 0 and 1 to B; prices move while nobody runs them (between revoke and assign)
    await ownA.moveTo([2, 3]);
    tick();
    await ownB.moveTo([0, 1]);
    await until('after hand-over 1', converged);
    const onB = bots.filter((x) => [0, 1].includes(ownA.partitionOf(x.id))).map((x) => x.id).sort();
    expect(b.runningBots().sort()).toEqual(onB);
    expect(a.runningBots().sort()).toEqual(bots.map((x) => x.id).filter((id) => !onB.includes(id)).sort());

    tick();
    await until('after tick 3', converged);

    // everything to B, then half back to A, with a price step right at the hand-over
    await handOver([2, 3], ownA, ownB);
    expect(a.runningBots()).toEqual([]);
    tick();
    await until('after tick 4', converged);
    const moving = handOver([1, 3], ownB, ownA);
    tick(); // lands while the hand-over is in flight
    await moving;
    await until('after hand-over 3', converged);
    for (let i = 0; i < 4; i++) {
      tick();
      await until(`after tick ${step}`, converged);
    }
    await a.idle();
    await b.idle();
    await recordedOnce();

    // the bots kept running throughout: one BotStarted each, never restarted or stopped
    for (const bot of bots) expect(await status(bot.id)).toEqual(['BotStarted']);
    // and some did complete cycles (the scenario really traded)
    const all = await Promise.all(bots.map((x) => events.readStream(`bot-${x.id}`)));
    expect(all.flat().filter((e) => e.type === 'ProfitRealized').length).toBeGreaterThan(3);
  });
});

/**
 * The watchdog against a slow venue (found by the CI run of stop 36): its period was shorter than one
 * check, and each period queued one more check in the bot's lane, without bound; a trader's "Check now"
 * then waited behind all of them. Now a check waiting in the lane (not begun) answers every request
 * that comes while it waits, so the lane holds at most the running check and one waiting.
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig } from '@gridrocket/bots';
import { providerWith } from './support/port-proxy';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

const T = Date.now();
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`].join('\n');
const bot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const SLOW_MS = 300;

describe('the watchdog against a venue slower than its period', () => {
  let world: RunnerWorld;
  afterAll(() => world.close());

  it('checks do not pile up in the bot lane, and a check asked for while one waits is answered by it', async () => {
    world = new RunnerWorld(CSV, T - 5000);
    let slow = false;
    let checks = 0;
    // the venue: each open-orders lookup (one per check) takes 300 ms once the bot runs
    const provider = providerWith({ mode: 'paper', prices: { subscribe: () => () => undefined, activeCount: () => 0 }, forget: () => undefined, close: async () => undefined }, (ref) => world.paper.for(ref), (target) => ({
      openOrders: async (symbol: string) => {
        if (slow) {
          checks++;
          await new Promise((r) => setTimeout(r, SLOW_MS));
        }
        return target.openOrders(symbol);
      },
    }));
    // the period (50 ms) is a sixth of one check (300 ms)
    const runner = await world.runner({ exchanges: provider, watchdogMs: 50, pollMs: 3_600_000 });
    const user = 'backlog-user';
    const id = await world.create(user, 'Spot', bot);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await until('started', async () => (await world.types(id)).includes('BotStarted'), 20_000);
    slow = true;
    const began = Date.now();
    await new Promise((r) => setTimeout(r, 3000)); // 60 periods, room for 10 checks
    const elapsed = Date.now() - began;
    // one check at a time: about elapsed ÷ 300 ms of them, never one per period (60)
    expect(checks).toBeLessThanOrEqual(Math.ceil(elapsed / SLOW_MS) + 1);
    expect(checks).toBeGreaterThanOrEqual(2);
    // "Check now" waits for the running check and one more, not for a backlog
    const before = checks;
    const [a, b] = await Promise.all([runner.checkNow(id), runner.checkNow(id)]);
    expect(a).not.toBeNull();
    expect(b).toBe(a); // the second request shares the check that was waiting
    expect(checks - before).toBeLessThanOrEqual(2);
    await runner.stop();
  });
});

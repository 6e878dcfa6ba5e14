/**
 * Issue 29: a fill poll whose key is refused tells the poller's bots (they fail with the reason) instead
 * of being swallowed and polled again for ever; a refusal that may be a short ban (KeyRefusedError,
 * Binance's -2015 on a key that worked before) is told only after KEY_REFUSALS_TO_FAIL polls in a row.
 */
import { BadApiKeyError, ExchangeDownError, KeyRefusedError, type ExchangePort } from '@gridrocket/exchanges';
import { FillPoller, KEY_REFUSALS_TO_FAIL, type PolledBot, type PollerHost } from './fill-poller';

function setup(answers: Array<Error | null>) {
  const told: string[] = [];
  const task: PolledBot = { botId: 'b1', released: false, fillsSinceMs: 1000, open: new Map(), closed: new Map(), acceptFill: () => undefined };
  const host: PollerHost<PolledBot> = {
    call: (_t, fn) => fn(),
    taskFor: () => undefined,
    kick: () => undefined,
    onKeyRefused: (t, err) => told.push(`${t.botId} ${err.constructor.name}`),
  };
  let i = 0;
  const port = {
    recentFills: async () => {
      const a = answers[Math.min(i++, answers.length - 1)];
      if (a) throw a;
      return [];
    },
  } as unknown as ExchangePort;
  const poller = new FillPoller(host, port, 'BTCUSDT', 1_000_000, null);
  poller.add(task);
  /** One poll, awaited (trigger() runs it in the background). */
  const pollOnce = async () => {
    poller.trigger();
    for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
  };
  return { told, pollOnce, stop: () => poller.stop() };
}

describe('a fill poll refused for the key', () => {
  it('a rejected key is told to the bots at once', async () => {
    const p = setup([new BadApiKeyError('AuthenticationError')]);
    await p.pollOnce();
    expect(p.told).toEqual(['b1 BadApiKeyError']);
    p.stop();
  });

  it('an outage is not (polled again)', async () => {
    const p = setup([new ExchangeDownError('x')]);
    for (let k = 0; k < KEY_REFUSALS_TO_FAIL + 1; k++) await p.pollOnce();
    expect(p.told).toEqual([]);
    p.stop();
  });

  it('a refusal that may be a short ban is told after KEY_REFUSALS_TO_FAIL polls in a row, and a poll that passes starts the count again', async () => {
    const refused = new KeyRefusedError('DDoSProtection');
    const p = setup([...Array(KEY_REFUSALS_TO_FAIL - 1).fill(refused), null, ...Array(KEY_REFUSALS_TO_FAIL).fill(refused)]);
    for (let k = 0; k < KEY_REFUSALS_TO_FAIL; k++) await p.pollOnce();
    expect(p.told).toEqual([]); // 4 refused, then one passed
    for (let k = 0; k < KEY_REFUSALS_TO_FAIL - 1; k++) await p.pollOnce();
    expect(p.told).toEqual([]);
    await p.pollOnce();
    expect(p.told).toEqual(['b1 KeyRefusedError']);
    p.stop();
  });
});

import { stateAfter, thrown } from '../testing/spec-helpers';
import type { SignalLogCommand, SignalLogEvent, SignalLogState } from './signal-log.decider';
import { decideSignalLog, evolveSignalLog, initialSignalLog } from './signal-log.decider';
import { SignalRateLimiter } from './signal-rate.limiter';
import { SIGNAL_ID_MEMORY_MS, SIGNAL_REFUSALS_PER_WINDOW, SIGNAL_REFUSAL_WINDOW_MS, SignalRefusal } from './signal.rules';

const botId = 'b1';
const created: SignalLogEvent = { type: 'BotCreated', data: { botId, userId: 'u1', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 } };
const given = (...events: SignalLogEvent[]): SignalLogState => events.reduce(evolveSignalLog, initialSignalLog);
const take = (signalId: string, at: number): SignalLogCommand => ({ type: 'TakeSignal', botId, signalId, action: 'start', auth: 'signature', signedAt: at, at });
const refusal = (at: number, suppressed = 0): SignalLogCommand => ({ type: 'RecordSignalRefusal', botId, reason: 'bad-signature', status: 401, message: 'no', signalId: null, suppressed, at });
/** Decides, then folds what was decided: the state after the command. */
const then = stateAfter(decideSignalLog, evolveSignalLog);

describe('signal log decider (issue 32)', () => {
  it('given a bot, when a signal is taken, then SignalReceived; when its id comes again, then a replay (409)', () => {
    const bot = given(created);
    expect(decideSignalLog(take('a', 1_000), bot)).toEqual([{ type: 'SignalReceived', data: { botId, signalId: 'a', action: 'start', auth: 'signature', signedAt: 1_000, at: 1_000 } }]);
    const after = then(bot, take('a', 1_000));
    const err = thrown(() => decideSignalLog(take('a', 2_000), after));
    expect(err).toBeInstanceOf(SignalRefusal);
    expect(err).toMatchObject({ reason: 'replay', status: 409, signalId: 'a' });
    expect(decideSignalLog(take('b', 2_000), after)).toHaveLength(1);
  });

  it('an id named __proto__ is an id like any other', () => {
    const after = then(given(created), take('__proto__', 1_000));
    expect(thrown(() => decideSignalLog(take('__proto__', 1_500), after))).toMatchObject({ reason: 'replay' });
    expect(decideSignalLog(take('constructor', 1_500), after)).toHaveLength(1);
  });

  it('ids are remembered SIGNAL_ID_MEMORY_MS (twice the 300 s window = 600,000 ms), then forgotten: their timestamps are stale by then', () => {
    expect(SIGNAL_ID_MEMORY_MS).toBe(600_000); // 2 × 300 s × 1000
    const after = then(given(created), take('a', 1_000));
    expect(thrown(() => decideSignalLog(take('a', 1_000 + 599_999), after))).toMatchObject({ reason: 'replay' });
    expect(decideSignalLog(take('a', 1_000 + 600_000), after)).toHaveLength(1);
    // a later signal folds the forgotten ones away: the memory stays bounded
    const later = then(after, take('b', 1_000 + 600_000));
    expect([...later.seen.keys()]).toEqual(['b']);
  });

  it('a missing or deleted bot: a signal is 404, a refusal writes nothing', () => {
    expect(thrown(() => decideSignalLog(take('a', 1), initialSignalLog))).toMatchObject({ status: 404 });
    const deleted = given(created, { type: 'BotDeleted', data: { botId } });
    expect(thrown(() => decideSignalLog(take('a', 1), deleted))).toMatchObject({ status: 404 });
    expect(decideSignalLog(refusal(1), deleted)).toEqual([]);
  });

  it('refusals: at most SIGNAL_REFUSALS_PER_WINDOW (5) recorded a minute; the next minute records again, with the count of those left out', () => {
    expect([SIGNAL_REFUSALS_PER_WINDOW, SIGNAL_REFUSAL_WINDOW_MS]).toEqual([5, 60_000]);
    const limiter = new SignalRateLimiter(1000);
    let state = given(created);
    const recorded: number[] = [];
    // 8 refusals at t = 0, 1000, …, 7000 ms: the first 5 recorded, 3 counted
    for (let i = 0; i < 8; i++) {
      // as the receiver does: the count so far goes with the record, or back when nothing is recorded
      const taken = limiter.takeSuppressed(botId);
      const events = decideSignalLog(refusal(i * 1000, taken), state);
      if (events.length === 0) {
        limiter.restoreSuppressed(botId, taken);
        limiter.suppress(botId);
      } else recorded.push(i);
      state = events.reduce(evolveSignalLog, state);
    }
    expect(recorded).toEqual([0, 1, 2, 3, 4]);
    // 60,000 ms after the window opened at 0: a new window; the record carries the 3 left out
    const next = decideSignalLog(refusal(60_000, limiter.takeSuppressed(botId)), state);
    expect(next).toEqual([{ type: 'SignalRefused', data: expect.objectContaining({ suppressed: 3, at: 60_000 }) }]);
    expect(limiter.takeSuppressed(botId)).toBe(0);
  });

  it('the rate limiter lets perMinute requests a bot through a minute, per bot, and forgets the oldest bots past maxKeys', () => {
    const limiter = new SignalRateLimiter(2, 3);
    expect([limiter.take('a', 0), limiter.take('a', 10), limiter.take('a', 20), limiter.take('b', 20)]).toEqual([true, true, false, true]);
    expect(limiter.retryAfter('a', 20)).toBe(60); // ceil((0 + 60,000 − 20) / 1000) = 60
    expect(limiter.take('a', 60_000)).toBe(true); // a new minute
    for (const k of ['c', 'd', 'e']) limiter.take(k, 60_000);
    // 'a' and 'b' were the oldest of 5 keys with room for 3: forgotten, so 'b' starts afresh
    expect([limiter.take('b', 60_001), limiter.take('b', 60_002), limiter.take('b', 60_003)]).toEqual([true, true, false]);
  });
});

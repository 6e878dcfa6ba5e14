/**
 * Issue 16: a rebuild folds the bot list's lifecycle events into the document in place
 * (`botListProjection.reduceInPlace`). Property (fast-check): over random histories of every event type
 * (no-op events, missing fields and documents read back from their JSON between events included), the
 * document folded in place is, after every event, exactly the one `reduce` folds: the same JSON, key
 * order included, which is what the read model stores.
 */
import fc from 'fast-check';
import type { RecordedEvent } from '@gridrocket/event-store';
import { BotDoc, botListProjection } from './bot-list.projection';

const botId = '11111111-1111-4111-8111-111111111111';
const config = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 1, entryPrice: 60000, takeProfit: 1, leverage: 1 };

const pid = fc.constantFrom(1, 2, -1, undefined);
const reason = fc.constantFrom('no key', 'venue down', undefined);
const flag = fc.constantFrom(true, false, undefined);
const without = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const createdArb = fc
  .record({ userId: fc.constantFrom('u1', 'u2'), botType: fc.constantFrom('Spot', 'Futures'), spacing: fc.constantFrom('percent', undefined) }).map((x) => ({ type: 'BotCreated', data: without({ botId, ...config, ...x }) }));
const rare = (arbitrary: fc.Arbitrary<{ type: string; data: Record<string, unknown> }>) => ({ arbitrary, weight: 1 });
const lifecycle = (arbitrary: fc.Arbitrary<{ type: string; data: Record<string, unknown> }>) => ({ arbitrary, weight: 4 });
const eventArb: fc.Arbitrary<{ type: string; data: Record<string, unknown> }> = fc.oneof(
  rare(createdArb),
  rare(fc.record({ numOfOrders: fc.constantFrom(3, 5), stopLossPercent: fc.constantFrom(5, null, undefined), spacing: fc.constantFrom('absolute', null, undefined) }).map((x) => ({ type: 'BotEdited', data: without({ botId, exchange: 'Binance', orderSize: 0.02, interval: 2, entryPrice: 59000, takeProfit: 2, leverage: 1, ...x }) }))),
  lifecycle(fc.constantFrom(undefined, true).map((afterClose) => ({ type: 'BotStartRequested', data: without({ botId, afterClose }) }))),
  lifecycle(pid.map((p) => ({ type: 'BotStarted', data: without({ botId, pid: p }) }))),
  lifecycle(pid.map((p) => ({ type: 'BotResumed', data: without({ botId, pid: p }) }))),
  lifecycle(reason.map((r) => ({ type: 'BotStartFailed', data: without({ botId, reason: r }) }))),
  lifecycle(fc.record({ r: reason, open: fc.constantFrom(2, undefined) }).map(({ r, open }) => ({ type: 'BotFailed', data: without({ botId, reason: r, ordersLeftOpen: open }) }))),
  lifecycle(fc.record({ cancelAllOrders: flag, closePosition: flag }).map((x) => ({ type: 'BotStopRequested', data: without({ botId, ...x }) }))),
  // issue 40: a stop that sells the position for a start ("sell it first")
  rare(fc.constant({ type: 'BotStopRequested', data: { botId, cancelAllOrders: true, closePosition: true, thenStart: true } })),
  // issue 29: a stop or failure may leave orders open on the exchange
  lifecycle(fc.constantFrom(3, undefined).map((open) => ({ type: 'BotStopped', data: without({ botId, pid: -1, ordersLeftOpen: open }) }))),
  rare(fc.constant({ type: 'BotDeleted', data: { botId } })),
  rare(fc.constantFrom(0.5, 1.25).map((amount) => ({ type: 'ProfitRealized', data: { botId, amount, totalProfit: amount, cycle: 1 } }))),
  rare(fc.constant({ type: 'SomethingNew', data: { botId } })),
);

/** A step: an event (with its time, sometimes none), and whether the document is read back from its JSON first (a rebuild that wrote it out). */
const stepArb = fc.record({ event: eventArb, at: fc.constantFrom('2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z', '2025-01-04T00:00:00.000Z', '2025-01-05T00:00:00.000Z', undefined), readBack: fc.boolean() });

function recorded(e: { type: string; data: Record<string, unknown> }, revision: number, at: string | undefined): RecordedEvent {
  const metadata = { userId: 'u', correlationId: 'c', causationId: null, occurredAt: at, schemaVersion: 1 } as unknown as RecordedEvent['metadata'];
  return { id: `e${revision}`, streamId: `bot-${botId}`, revision: BigInt(revision), position: BigInt(revision + 1), type: e.type, data: e.data, metadata, created: '' };
}

const reduce = (doc: BotDoc | null, event: RecordedEvent) => {
  const next = botListProjection.reduce(doc, event);
  return next === undefined ? doc : next;
};
const readBack = (doc: BotDoc | null): BotDoc | null => (doc ? JSON.parse(JSON.stringify(doc)) : doc);

describe('bot list: the rebuild folds lifecycle events in place exactly as reduce does (issue 16)', () => {
  it('gives the same document (the same JSON) after every event of random histories', () => {
    let inPlace = 0;
    fc.assert(
      fc.property(createdArb, fc.array(stepArb, { maxLength: 40 }), (first, rest) => {
        const steps = [{ event: first, at: '2025-01-01T00:00:00.000Z', readBack: false }, ...rest];
        let expected: BotDoc | null = null;
        let actual: BotDoc | null = null;
        steps.forEach((step, revision) => {
          if (step.readBack) [expected, actual] = [readBack(expected), readBack(actual)];
          const event = recorded(step.event, revision, step.at);
          expected = reduce(expected, event);
          if (actual && botListProjection.reduceInPlace!(actual, event)) inPlace++;
          else actual = reduce(actual, event);
          expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
        });
      }),
      { numRuns: 3000 },
    );
    expect(inPlace).toBeGreaterThan(5_000); // the in-place fold did most of the lifecycle events
  });

  it('changes the document only where reduce gives a new one: a no-op event keeps the version and the time', () => {
    const start = (type: string, data: Record<string, unknown>, revision: number, at: string) => recorded({ type, data }, revision, at);
    const created = reduce(null, start('BotCreated', { botId, userId: 'u1', botType: 'Spot', ...config }, 0, 'T0'))!;
    expect(botListProjection.reduceInPlace!(created, start('BotStartRequested', { botId }, 1, 'T1'))).toBe(true);
    expect(botListProjection.reduceInPlace!(created, start('BotStarted', { botId, pid: 7 }, 2, 'T2'))).toBe(true);
    expect(botListProjection.reduceInPlace!(created, start('BotResumed', { botId, pid: 7 }, 3, 'T3'))).toBe(true); // the same pid
    expect(created).toMatchObject({ status: 'running', updatedat: 'T2', s: { status: 'running', pid: 7, version: 3, run: 1 } });
    // what is not a lifecycle event is left to reduce
    expect(botListProjection.reduceInPlace!(created, start('BotEdited', { botId, numOfOrders: 3 }, 4, 'T4'))).toBe(false);
    expect(created.s.config.numOfOrders).toBe(5);
  });
});

import type { RecordedEvent } from '@gridrocket/event-store';
import { botStateAt } from './bot-state-at';
import { csvCell, csvRow, negotiateFormat, parseAt, toHistoryEntry } from './history.format';

const ev = (revision: number, type: string, data: unknown, occurredAt: string): RecordedEvent => ({
  id: `e${revision}`,
  type,
  data,
  streamId: 'bot-b',
  revision: BigInt(revision),
  position: BigInt(100 + revision),
  created: occurredAt,
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt, schemaVersion: 1 },
});

const config = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const stream = [
  ev(0, 'BotCreated', { botId: 'b', userId: 'u', botType: 'Spot', ...config }, '2025-01-01T10:00:00.000Z'),
  ev(1, 'BotStartRequested', { botId: 'b' }, '2025-01-01T11:00:00.000Z'),
  ev(2, 'BotStarted', { botId: 'b', pid: 7 }, '2025-01-01T11:00:01.000Z'),
  ev(3, 'ProfitRealized', { botId: 'b', amount: 2, totalProfit: 2, cycle: 1 }, '2025-01-01T12:00:00.000Z'),
];

describe('state at a time', () => {
  it('given a bot history, when folded up to a moment, then it is the state of that moment', () => {
    expect(botStateAt('b', stream, new Date('2025-01-01T09:00:00Z'))).toMatchObject({ revision: null, eventsApplied: 0, view: null, next: ['BotCreated'] });
    expect(botStateAt('b', stream, new Date('2025-01-01T10:00:00Z'))).toMatchObject({ revision: 0, view: { botstatus: false, state: 'stopped' } });
    expect(botStateAt('b', stream, new Date('2025-01-01T11:00:00.500Z'))).toMatchObject({ revision: 1, position: 101, view: { state: 'starting', botstatus: false } });
    const later = botStateAt('b', stream, new Date('2025-01-02T00:00:00Z'));
    expect(later).toMatchObject({ revision: 3, eventsApplied: 4, view: { state: 'running', pid: 7, profit: 2 }, next: ['BotStopRequested', 'BotFailed', 'ProfitRealized', 'BotResumed'] });
  });
});

describe('history formats', () => {
  it('parses ISO-8601 times and refuses the rest', () => {
    expect(parseAt('2025-01-01T10:00:00Z').toISOString()).toBe('2025-01-01T10:00:00.000Z');
    expect(parseAt('2025-01-01T12:00:00+02:00').toISOString()).toBe('2025-01-01T10:00:00.000Z');
    expect(parseAt('2025-01-01T10:00').toISOString()).toBe('2025-01-01T10:00:00.000Z');
    expect(parseAt('2025-01-01').toISOString()).toBe('2025-01-01T00:00:00.000Z');
    const now = new Date();
    expect(parseAt(undefined, now)).toBe(now);
    for (const bad of ['now', '1735725600000', '2025-02-30T00:00:00Z', '2025-01-01 10:00', ['2025-01-01']]) {
      expect(() => parseAt(bad)).toThrow('Invalid input');
    }
  });

  it('negotiates the format from the query, then the Accept header', () => {
    expect(negotiateFormat(undefined, undefined)).toBe('json');
    expect(negotiateFormat('CSV', 'application/json')).toBe('csv');
    expect(negotiateFormat(undefined, 'text/csv')).toBe('csv');
    expect(negotiateFormat(undefined, 'application/x-ndjson')).toBe('ndjson');
    expect(() => negotiateFormat('xml', undefined)).toThrow('Invalid input');
  });

  it('quotes CSV cells and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell(null)).toBe('');
    expect(csvRow(toHistoryEntry(stream[2]))).toBe('2,102,e2,BotStarted,2025-01-01T11:00:01.000Z,2025-01-01T11:00:01.000Z,u,c,,1,"{""botId"":""b"",""pid"":7}","{""userId"":""u"",""correlationId"":""c"",""causationId"":null,""occurredAt"":""2025-01-01T11:00:01.000Z"",""schemaVersion"":1}"\r\n');
  });
});

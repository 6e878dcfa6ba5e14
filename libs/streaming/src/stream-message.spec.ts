import type { RecordedEvent } from '@gridrocket/event-store';
import { Keyring } from '@gridrocket/shared/runtime';
import { formatForTerminal, scrubSecrets, toStreamMessage, topicFor } from './stream-message';

const recorded = (streamId: string, data: unknown): RecordedEvent => ({
  id: 'e-1',
  type: 'Something',
  streamId,
  revision: 2n,
  position: 42n,
  created: '2025-01-01T00:00:00.000Z',
  data,
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: '2025-01-01T00:00:00.000Z', schemaVersion: 1 },
});

describe('stream messages', () => {
  it('routes streams to topics by prefix, others to the fallback', () => {
    expect(topicFor('bot-1')).toBe('gridrocket.bots');
    expect(topicFor('credential-1')).toBe('gridrocket.credentials');
    expect(topicFor('user-1')).toBe('gridrocket.users');
    expect(topicFor('runner-1')).toBe('gridrocket.other');
  });

  it('drops real sealed values wherever they are, and secret-named fields', () => {
    const keyring = Keyring.fromKey(Buffer.alloc(32, 7));
    const sealed = keyring.seal('the api secret', 'cred-1');
    const { value, redacted } = scrubSecrets({ a: 1, list: [sealed, 'plain'], deep: { x: sealed }, keySecret: 'x', passwordHash: null, token: undefined });
    expect(value).toEqual({ a: 1, list: [null, 'plain'], deep: {}, passwordHash: null });
    expect(redacted).toEqual(['list[0]', 'deep.x', 'keySecret']);
    const m = toStreamMessage(recorded('credential-1', { apiKeySealed: sealed, exchange: 'Binance' }));
    expect(m.value).not.toContain(sealed);
    expect(JSON.parse(m.value)).toMatchObject({ data: { exchange: 'Binance' }, redacted: ['data.apiKeySealed'], revision: 2, position: 42 });
    expect(m.headers).toEqual({ 'event-id': 'e-1', 'event-type': 'Something', 'correlation-id': 'c' });
    expect(m.key).toBe('credential-1');
  });

  it('builds a message\'s value when it is first read, once, and without the secrets (issue 16)', () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const m = toStreamMessage(recorded('credential-1', { keySecret: 'shh', exchange: 'Kucoin' }));
      expect(stringify).not.toHaveBeenCalled(); // nothing scrubbed or serialised for a message nobody reads
      const first = m.value;
      expect(m.value).toBe(first);
      expect(stringify).toHaveBeenCalledTimes(1);
      expect(JSON.parse(first)).toMatchObject({ data: { exchange: 'Kucoin' }, redacted: ['data.keySecret'] });
      expect(first).not.toContain('shh');
    } finally {
      stringify.mockRestore();
    }
  });

  it('formats a line for the terminal', () => {
    const v = JSON.parse(toStreamMessage(recorded('bot-9', { pid: 1 })).value);
    expect(formatForTerminal(v)).toBe('2025-01-01T00:00:00.000Z  #42  bot-9@2  Something           user=u  corr=c  {"pid":1}');
    expect(JSON.parse(formatForTerminal(v, true))).toEqual(v);
  });
});

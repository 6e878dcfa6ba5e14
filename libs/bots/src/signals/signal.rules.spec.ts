import { SIGNAL_WINDOW_SECONDS, SignalRefusal, assertAuthentic, assertFresh, parseSignalTime, readSignalRequest, signSignal } from './signal.rules';

const SECRET = 'grs_test-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const headersFor = (ts: string, body: string, id = 'sig-1', secret = SECRET) => ({ 'x-signal-timestamp': ts, 'x-signal-id': id, 'x-signature': `sha256=${signSignal(secret, ts, body)}` });
const refusalOf = (fn: () => unknown): SignalRefusal => {
  try {
    fn();
  } catch (err) {
    if (err instanceof SignalRefusal) return err;
    throw err;
  }
  throw new Error('no refusal');
};

describe('signal rules (issue 32)', () => {
  it('a signed JSON signal is read and verifies; a changed body, timestamp or signature does not', () => {
    const body = '{"action":"start"}';
    const raw = Buffer.from(body);
    const req = readSignalRequest(headersFor('1700000000', body), raw, 'application/json');
    expect(req).toMatchObject({ auth: 'signature', action: 'start', signalId: 'sig-1', signedAt: 1_700_000_000_000, cancelAllOrders: false });
    expect(() => assertAuthentic(req, raw, SECRET, false)).not.toThrow();
    expect(refusalOf(() => assertAuthentic(req, Buffer.from('{"action":"stop"}'), SECRET, false))).toMatchObject({ reason: 'bad-signature', status: 401 });
    const otherTs = readSignalRequest({ ...headersFor('1700000000', body), 'x-signal-timestamp': '1700000001' }, raw, 'application/json');
    expect(refusalOf(() => assertAuthentic(otherTs, raw, SECRET, false))).toMatchObject({ reason: 'bad-signature', status: 401 });
    expect(refusalOf(() => assertAuthentic(req, raw, SECRET + 'x', false))).toMatchObject({ reason: 'bad-signature' });
  });

  it('the plain-text form: the word start or stop, any case', () => {
    const req = readSignalRequest(headersFor('1700000000', ' STOP\n'), Buffer.from(' STOP\n'), 'text/plain');
    expect(req.action).toBe('stop');
  });

  it('malformed requests are 400 with a message per field', () => {
    const r = refusalOf(() => readSignalRequest({ 'x-signature': 'md5=abc', 'x-signal-timestamp': 'yesterday', 'x-signal-id': 'a b' }, Buffer.from('{"action":"go"}'), 'application/json'));
    expect(r).toMatchObject({ reason: 'malformed', status: 400, signalId: null });
    expect(r.errors!.map((e) => e.field).sort()).toEqual(['X-Signal-Id', 'X-Signal-Timestamp', 'X-Signature', 'action']);
    expect(refusalOf(() => readSignalRequest({}, Buffer.from('{not json'), 'application/json')).errors).toEqual([{ field: 'body', message: 'The body is not valid JSON' }]);
    expect(refusalOf(() => readSignalRequest({}, Buffer.from('[1,2]'), 'application/json')).status).toBe(400);
  });

  it('TradingView\'s form (the secret in the JSON message) is taken only where the owner allowed it', () => {
    const body = JSON.stringify({ action: 'start', id: 'tv-1', timestamp: '2026-11-28T08:00:00Z', secret: SECRET, ticker: 'BTCUSDT' });
    const req = readSignalRequest({}, Buffer.from(body), 'application/json');
    expect(req).toMatchObject({ auth: 'body-secret', signalId: 'tv-1', signedAt: Date.UTC(2026, 10, 28, 8, 0, 0) });
    expect(() => assertAuthentic(req, Buffer.from(body), SECRET, true)).not.toThrow();
    expect(refusalOf(() => assertAuthentic(req, Buffer.from(body), SECRET, false)).message).toMatch(/signed signals only/);
    expect(refusalOf(() => assertAuthentic(req, Buffer.from(body), 'grs_other', true)).status).toBe(401);
  });

  it('times: Unix seconds or ISO 8601 UTC to the second ({{timenow}}); anything else is not a time', () => {
    expect(parseSignalTime(1_700_000_000)).toBe(1_700_000_000_000);
    expect(parseSignalTime('1700000000')).toBe(1_700_000_000_000);
    expect(parseSignalTime('2019-08-27T09:56:00Z')).toBe(Date.UTC(2019, 7, 27, 9, 56, 0));
    for (const bad of ['2019-08-27 09:56', '2019-08-27T09:56:00+02:00', 'soon', -1, 1.5, null]) expect(parseSignalTime(bad)).toBeNull();
  });

  it('fresh within the window either way, stale past it (400 on the timestamp)', () => {
    const body = '{"action":"start"}';
    const req = readSignalRequest(headersFor('1700000000', body), Buffer.from(body), 'application/json');
    const at = 1_700_000_000_000;
    // the window is 300 s: 300 s away is fresh, 301 s away is not (either way)
    expect(SIGNAL_WINDOW_SECONDS).toBe(300);
    expect(() => assertFresh(req, at + 300_000)).not.toThrow();
    expect(() => assertFresh(req, at - 300_000)).not.toThrow();
    expect(refusalOf(() => assertFresh(req, at + 301_000))).toMatchObject({ reason: 'stale', status: 400, signalId: 'sig-1' });
    expect(refusalOf(() => assertFresh(req, at - 301_000)).errors![0].field).toBe('X-Signal-Timestamp');
  });
});

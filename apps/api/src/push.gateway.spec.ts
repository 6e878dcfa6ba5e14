import type { IncomingMessage } from 'node:http';
import { originAllowed, requestOriginOf } from './push.gateway';

/** Issue 31, finding 6: the Origin fallback compared the host only, not the scheme or the port. */
describe('socket Origin check', () => {
  const publicUrl = 'https://gridrocket.example.com';

  it('admits no Origin (not a browser) and the public URL\'s origin, whatever the request says', () => {
    expect(originAllowed(undefined, { proto: 'http', host: 'x' }, publicUrl)).toBe(true);
    expect(originAllowed('https://gridrocket.example.com', { proto: 'http', host: '127.0.0.1:3000' }, publicUrl)).toBe(true);
  });

  it('the fallback (the origin the request was sent to) compares scheme, host and port', () => {
    const sentTo = { proto: 'https', host: 'dash.example.net:8443' };
    expect(originAllowed('https://dash.example.net:8443', sentTo, publicUrl)).toBe(true);
    expect(originAllowed('https://DASH.example.net:8443', sentTo, publicUrl)).toBe(true);
    expect(originAllowed('http://dash.example.net:8443', sentTo, publicUrl)).toBe(false); // scheme
    expect(originAllowed('https://dash.example.net:9443', sentTo, publicUrl)).toBe(false); // port
    expect(originAllowed('https://dash.example.net', sentTo, publicUrl)).toBe(false); // port (443)
    expect(originAllowed('https://evil.example.net:8443', sentTo, publicUrl)).toBe(false); // host
    expect(originAllowed('https://dash.example.net:8443.evil.example', sentTo, publicUrl)).toBe(false);
    // a page over http cannot open a socket that was sent over https, nor the other way round
    expect(originAllowed('http://dash.example.net', { proto: 'https', host: 'dash.example.net' }, publicUrl)).toBe(false);
    expect(originAllowed('https://dash.example.net', { proto: 'http', host: 'dash.example.net' }, publicUrl)).toBe(false);
  });

  it('default ports are the same origin written two ways', () => {
    expect(originAllowed('https://dash.example.net', { proto: 'https', host: 'dash.example.net:443' }, publicUrl)).toBe(true);
    expect(originAllowed('http://dash.example.net:80', { proto: 'http', host: 'dash.example.net' }, publicUrl)).toBe(true);
    expect(originAllowed('http://dash.example.net', { proto: 'http', host: 'dash.example.net:443' }, publicUrl)).toBe(false);
  });

  it('refuses what is no origin: other schemes, a missing or malformed Host, null', () => {
    expect(originAllowed('null', { proto: 'http', host: 'null' }, publicUrl)).toBe(false);
    expect(originAllowed('file:///x', { proto: 'http', host: 'x' }, publicUrl)).toBe(false);
    expect(originAllowed('http://a.example', { proto: 'http', host: undefined }, publicUrl)).toBe(false);
    expect(originAllowed('http://a.example', { proto: 'http', host: 'a.example/path' }, publicUrl)).toBe(false);
    expect(originAllowed('http://a.example', { proto: 'http', host: 'user@a.example' }, publicUrl)).toBe(false);
    expect(originAllowed('http://a.example', { proto: 'gopher', host: 'a.example' }, publicUrl)).toBe(false);
  });

  describe('the origin a handshake was sent to', () => {
    const req = (peer: string, headers: Record<string, string>, encrypted = false) =>
      ({ socket: { remoteAddress: peer, encrypted }, headers }) as unknown as IncomingMessage;
    const loopbackOnly = (addr: string) => addr === '127.0.0.1';
    const forwarded = { host: '127.0.0.1:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'dash.example.net:8443' };

    it('takes X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy (the first value of a list)', () => {
      expect(requestOriginOf(req('127.0.0.1', forwarded), loopbackOnly)).toEqual({ proto: 'https', host: 'dash.example.net:8443' });
      expect(requestOriginOf(req('127.0.0.1', { ...forwarded, 'x-forwarded-proto': 'HTTPS, http', 'x-forwarded-host': 'a.example, b.example' }), loopbackOnly)).toEqual({ proto: 'https', host: 'a.example' });
      // without X-Forwarded-Host, the Host the proxy passed on
      expect(requestOriginOf(req('127.0.0.1', { host: 'dash.example.net:8443', 'x-forwarded-proto': 'https' }), loopbackOnly)).toEqual({ proto: 'https', host: 'dash.example.net:8443' });
    });

    it('ignores them from anyone else: the connection says the scheme, Host the host', () => {
      expect(requestOriginOf(req('203.0.113.9', forwarded), loopbackOnly)).toEqual({ proto: 'http', host: '127.0.0.1:3000' });
      expect(requestOriginOf(req('203.0.113.9', forwarded, true), loopbackOnly)).toEqual({ proto: 'https', host: '127.0.0.1:3000' });
    });
  });
});

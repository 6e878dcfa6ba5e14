import { toHttpError } from './all-exceptions.filter';

describe('toHttpError', () => {
  it('a body the client cut off is a 400, not a server error (issue 38: an aborted upload was logged and answered as a 500)', () => {
    // what Node's IncomingMessage emits when the socket closes mid-body (node:_http_server abortIncoming)
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(toHttpError(aborted)).toMatchObject({ status: 400, body: { statusCode: 400, errors: [{ field: 'body', message: 'The body was cut off' }] } });
    // body-parser's own name for it
    expect(toHttpError(Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400 })).status).toBe(400);
  });

  it('any other error is still a 500 that leaks nothing', () => {
    expect(toHttpError(Object.assign(new Error('connect ECONNRESET 10.0.0.1:443'), { code: 'ECONNRESET' }))).toEqual({ status: 500, headers: {}, body: { statusCode: 500, message: 'Internal server error' } });
    expect(toHttpError(new TypeError("Cannot read properties of null (reading 'remoteAddress')")).status).toBe(500);
  });
});

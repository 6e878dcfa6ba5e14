import { Client, spotBot } from './support/http-client';
import { useTestApp } from './support/trader-app';

type Case = { name: string; method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: (ids: Ids) => string; body?: string; field?: string };
type Ids = { bot: string; uid: string };

const json = (v: unknown) => JSON.stringify(v);
const huge = 'x'.repeat(70_000);
const long = '9'.repeat(300);

/** Bodies that are wrong in one field each, for create (POST) and edit (PUT). */
function fieldCases(): Case[] {
  const bad: [string, unknown][] = [
    ['string', 'abc'], ['empty', ''], ['null', null], ['array', [1]], ['object', { a: 1 }], ['boolean', true],
    ['negative', -5], ['zero', 0], ['NaN text', 'NaN'], ['Infinity text', 'Infinity'], ['-Infinity text', '-Infinity'],
    ['too long', long], ['hex', '0x10'], ['spaces', '  '],
  ];
  const fields = ['numOfOrders', 'orderSize', 'interval', 'entryPrice', 'takeProfit'];
  const out: Case[] = [];
  for (const field of fields) {
    for (const [label, value] of bad) {
      out.push({ name: `create ${field} ${label}`, method: 'POST', path: () => '/api/bots', body: json({ ...spotBot, [field]: value }), field });
      out.push({ name: `edit ${field} ${label}`, method: 'PUT', path: (ids) => `/api/bots/${ids.bot}`, body: json({ ...spotBot, [field]: value }), field });
    }
    const { [field as keyof typeof spotBot]: _omit, ...missing } = spotBot;
    out.push({ name: `create missing ${field}`, method: 'POST', path: () => '/api/bots', body: json(missing), field });
  }
  for (const [field, value] of [
    ['exchange', 'Bitfinex'], ['exchange', 7], ['exchange', 'B'], ['exchange', huge.slice(0, 50)],
    ['symbol', 'DOGEUSDT'], ['symbol', 'BTC'], ['symbol', 12345678], ['symbol', long],
    ['botType', 'Margin'], ['botType', 1], ['leverage', 500], ['leverage', 2.5], ['leverage', 'ten'],
    ['numOfOrders', 2.5], ['numOfOrders', 100],
  ] as [string, unknown][]) {
    out.push({ name: `create ${field}=${String(value).slice(0, 12)}`, method: 'POST', path: () => '/api/bots', body: json({ ...spotBot, botType: field === 'leverage' ? 'Futures' : spotBot.botType, [field]: value }), field });
  }
  return out;
}

function rawCases(): Case[] {
  const bodies = [
    '{"exchange":', '{exchange: "Binance"}', 'not json', '{"numOfOrders": NaN}', '{"entryPrice": Infinity}',
    '[]', '[1,2,3]', '"text"', '42', 'null', '{"a":1}', `{"symbol":"${huge}"}`, '\u0000\u0001', '{"entryPrice": 1e999}',
  ];
  const out: Case[] = [];
  for (const [i, body] of bodies.entries()) {
    out.push({ name: `create raw body #${i}`, method: 'POST', path: () => '/api/bots', body });
    out.push({ name: `edit raw body #${i}`, method: 'PUT', path: (ids) => `/api/bots/${ids.bot}`, body });
    out.push({ name: `register raw body #${i}`, method: 'POST', path: () => '/api/auth/register', body });
  }
  return out;
}

function idCases(): Case[] {
  const ids = ['unknown', '00000000-0000-4000-8000-000000000000', '..%2F..%2Fetc', "1' OR '1'='1", huge.slice(0, 2000), '%00'];
  const out: Case[] = [];
  for (const id of ids) {
    out.push({ name: `details ${id.slice(0, 10)}`, method: 'GET', path: () => `/api/bot-details/${id}` });
    out.push({ name: `delete ${id.slice(0, 10)}`, method: 'DELETE', path: () => `/api/bots/${id}` });
    out.push({ name: `edit ${id.slice(0, 10)}`, method: 'PUT', path: () => `/api/bots/${id}`, body: json(spotBot) });
    out.push({ name: `start ${id.slice(0, 10)}`, method: 'GET', path: () => `/api/startBot?id=${encodeURIComponent(id)}` });
    out.push({ name: `stop ${id.slice(0, 10)}`, method: 'GET', path: () => `/api/stopBot?id=${encodeURIComponent(id)}` });
  }
  out.push({ name: 'start without id', method: 'GET', path: () => '/api/startBot' });
  out.push({ name: 'start with two ids', method: 'GET', path: (x) => `/api/startBot?id=${x.bot}&id=${x.bot}` });
  out.push({ name: 'stop with bad cancelAllOrders', method: 'GET', path: (x) => `/api/stopBot?id=${x.bot}&cancelAllOrders=maybe`, field: 'cancelAllOrders' });
  out.push({ name: 'list another userId', method: 'GET', path: () => '/api/bots/someone-else' });
  out.push({ name: 'create for another userId', method: 'POST', path: () => '/api/bots', body: json({ ...spotBot, userId: 'someone-else' }) });
  return out;
}

describe('malformed requests', () => {
  const t = useTestApp();

  it('200+ malformed requests all get a 4xx with a message (field messages where a field is wrong); the server stays healthy', async () => {
    const c = new Client(t.app.url);
    const user = await c.signUp('fuzz@example.com');
    const { body: bot } = await c.post('/api/bots', spotBot);
    const ids = { bot: bot.id, uid: user.uid };
    const cases = [...fieldCases(), ...rawCases(), ...idCases()];
    expect(cases.length).toBeGreaterThanOrEqual(200);

    const failures: string[] = [];
    for (let i = 0; i < cases.length; i += 20) {
      const chunk = cases.slice(i, i + 20);
      const results = await Promise.all(
        chunk.map((k) => c.raw(k.method, k.path(ids), { body: k.body, headers: k.body === undefined ? {} : { 'content-type': 'application/json' } })),
      );
      results.forEach((r, j) => {
        const k = chunk[j];
        const ok =
          r.status >= 400 &&
          r.status < 500 &&
          typeof r.body?.message === 'string' &&
          (!k.field || (Array.isArray(r.body.errors) && r.body.errors.some((e: { field: string; message: string }) => e.field === k.field && e.message.length > 0)));
        if (!ok) failures.push(`${k.name}: ${r.status} ${r.text.slice(0, 200)}`);
      });
    }
    expect(failures).toEqual([]);

    // nothing partial was written: the one bot is unchanged, and the server still serves
    const health = await c.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    const list = await c.get(`/api/bots/${user.uid}`);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ numoforders: 5, entryprice: 60000, exchange: 'Binance' });
  });
});

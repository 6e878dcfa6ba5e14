#!/usr/bin/env node
/**
 * A tiny in-memory stand-in for the GridRocket API (the contract in frontend's issue), used to look
 * at the dashboard before the real server exists and to dry-run e2e/run.js (E2E_SERVER=stub).
 * Not shipped. Serves frontend/dist with an SPA fallback, /api/*, socket.io on /socket.io.
 * Env: PORT (0 = any), HOST (127.0.0.1), DATA_DIR (mail goes to DATA_DIR/mail/*.eml).
 */
'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { Server } = require('socket.io');

const DIST = path.resolve(__dirname, '../frontend/dist');
const DATA_DIR = process.env.DATA_DIR || fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'gr-stub-'));
const HOST = process.env.HOST || '127.0.0.1';
const PORT = Number(process.env.PORT || 0);
fs.mkdirSync(path.join(DATA_DIR, 'mail'), { recursive: true });

const users = new Map(); // uid -> {uid,email,password,displayName,emailVerified,photoURL}
const sessions = new Map(); // sid -> uid
const tokens = new Map(); // token -> {uid, kind}
const bots = new Map(); // id -> bot
const creds = new Map(); // id -> {id, exchange, apikeyid, userid}
const SYMBOLS = ['ALGOUSDT','ALICEUSDT','ATOMUSDT','AVAXUSDT','BCHUSDT','BTCUSDT','BTCUSDC','CAKEUSDT','COCOSUSDT','CRVSUSDT','DOTUSDT','ETCUSDT','FILUSDT','GRASSUSDT','GBPUSDT','KCSUSDT','LTCUSDT','LINKUSDT','SFPUSDT','STXUSDT','SOLUSDT','TLMUSDT','XTZUSDT','XRPUSDT'];
const PRICES = { BTCUSDT: 64250.5, BTCUSDC: 64240.1, SOLUSDT: 148.32, XRPUSDT: 0.5234, DOTUSDT: 6.12, LTCUSDT: 71.4, LINKUSDT: 13.9, AVAXUSDT: 27.3, ATOMUSDT: 6.9, ALGOUSDT: 0.17 };
const price = (s) => PRICES[s] ?? 1.2345;
let io;

const publicUser = (u) => ({ uid: u.uid, displayName: u.displayName, email: u.email, emailVerified: u.emailVerified, photoURL: u.photoURL });
const id = () => crypto.randomUUID();

function parseCookies(h) {
  const out = {};
  for (const part of (h || '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

function mail(to, subject, link) {
  const file = path.join(DATA_DIR, 'mail', `${Date.now()}-${crypto.randomBytes(3).toString('hex')}.eml`);
  fs.writeFileSync(file, `To: ${to}\r\nFrom: GridRocket <no-reply@gridrocket.local>\r\nSubject: ${subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nOpen this link:\r\n${link}\r\n`);
  console.log(`mail to ${to}: ${link}`);
}

function send(res, status, body, headers = {}) {
  const text = body === undefined || status === 204 ? '' : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(text);
}
const err = (res, status, message, errors) => send(res, status, { statusCode: status, message, ...(errors ? { errors } : {}) });

function emit(uid, event, payload) {
  io.to(`user:${uid}`).emit(event, payload);
}

function validEmail(e) {
  const errors = [];
  if (typeof e !== 'string' || !e) errors.push({ field: 'email', message: 'Email is required' });
  else if (e.length < 5) errors.push({ field: 'email', message: 'Email must be at least 5 characters' });
  return errors;
}
function validPassword(p, field = 'password') {
  if (typeof p !== 'string' || !p) return [{ field, message: 'Password is required' }];
  if (p.length < 8) return [{ field, message: 'Password must be at least 8 characters' }];
  return [];
}

function serveStatic(req, res, pathname) {
  let file = path.join(DIST, decodeURIComponent(pathname));
  if (!file.startsWith(DIST) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(DIST, 'index.html');
  const ext = path.extname(file);
  const type = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' }[ext] || 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type });
  fs.createReadStream(file).pipe(res);
}

function readBody(req) {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      try {
        resolve(data ? JSON.parse(data) : {});
      } catch {
        resolve(null);
      }
    });
  });
}

function botFromBody(b, uid) {
  const num = (v) => Number(v);
  const errors = [];
  for (const k of ['numOfOrders', 'orderSize', 'interval', 'entryPrice', 'takeProfit']) {
    if (!Number.isFinite(num(b[k])) || num(b[k]) <= 0) errors.push({ field: k, message: `${k} must be a number greater than 0` });
  }
  if (!['Binance', 'Kucoin'].includes(b.exchange)) errors.push({ field: 'exchange', message: 'exchange must be Binance or Kucoin' });
  return errors;
}

async function api(req, res, url, uid, sid) {
  const m = req.method;
  const p = url.pathname;
  const q = Object.fromEntries(url.searchParams);
  const cookies = parseCookies(req.headers.cookie);
  const needsCsrf = m !== 'GET' || p === '/api/startBot' || p === '/api/stopBot';
  if (needsCsrf && (!cookies.csrf_token || req.headers['x-csrf-token'] !== cookies.csrf_token)) return err(res, 403, 'Invalid CSRF token');
  const body = m === 'POST' || m === 'PUT' ? await readBody(req) : {};
  if (body === null) return err(res, 400, 'Malformed JSON');
  const user = uid ? users.get(uid) : null;

  if (m === 'GET' && p === '/api/config') {
    return send(res, 200, {
      contactEmail: 'crew@gridrocket.local',
      social: { twitter: 'https://x.com/gridrocket', telegram: 'https://t.me/gridrocket', github: 'https://github.com/gridrocket' },
      exchangeSignup: { binance: 'https://accounts.binance.com/register?ref=GRIDROCKET', kucoin: 'https://www.kucoin.com/r/rf/GRIDROCKET' },
      providers: { google: false, facebook: false },
    });
  }
  if (m === 'GET' && p === '/api/auth/csrf') return send(res, 200, { token: cookies.csrf_token || res.__csrf });
  if (m === 'POST' && p === '/api/auth/register') {
    const errors = [...validEmail(body.email), ...validPassword(body.password)];
    if (errors.length) return err(res, 400, 'Validation failed', errors);
    if ([...users.values()].some((u) => u.email === body.email)) return err(res, 409, 'The email address is already in use by another account.');
    const u = { uid: id(), email: body.email, password: body.password, displayName: null, emailVerified: false, photoURL: null };
    users.set(u.uid, u);
    const s = id();
    sessions.set(s, u.uid);
    const t = id();
    tokens.set(t, { uid: u.uid, kind: 'verify' });
    mail(u.email, 'Verify your email', `http://${req.headers.host}/verify-email-address?token=${t}`);
    return send(res, 201, publicUser(u), { 'Set-Cookie': `sid=${s}; Path=/; HttpOnly; SameSite=Lax` });
  }
  if (m === 'POST' && p === '/api/auth/login') {
    const u = [...users.values()].find((x) => x.email === body.email && x.password === body.password);
    if (!u) return err(res, 401, 'Wrong email or password.');
    const s = id();
    sessions.set(s, u.uid);
    return send(res, 200, publicUser(u), { 'Set-Cookie': `sid=${s}; Path=/; HttpOnly; SameSite=Lax` });
  }
  if (m === 'POST' && p === '/api/auth/logout') {
    sessions.delete(sid);
    return send(res, 204, undefined, { 'Set-Cookie': 'sid=; Path=/; Max-Age=0' });
  }
  if (m === 'POST' && p === '/api/auth/verify-email') {
    const t = tokens.get(body.token);
    if (!t || t.kind !== 'verify') return err(res, 400, 'This link is invalid or has expired.');
    tokens.delete(body.token);
    const u = users.get(t.uid);
    u.emailVerified = true;
    return send(res, 200, publicUser(u));
  }
  if (m === 'POST' && p === '/api/auth/forgot-password') {
    const u = [...users.values()].find((x) => x.email === body.email);
    if (u) {
      const t = id();
      tokens.set(t, { uid: u.uid, kind: 'reset' });
      mail(u.email, 'Reset your password', `http://${req.headers.host}/reset-password?token=${t}`);
    }
    return send(res, 202, {});
  }
  if (m === 'POST' && p === '/api/auth/reset-password') {
    const t = tokens.get(body.token);
    if (!t || t.kind !== 'reset') return err(res, 400, 'This link is invalid or has expired.');
    tokens.delete(body.token);
    users.get(t.uid).password = body.password;
    return send(res, 200, {});
  }
  if (!user) return err(res, 401, 'Unauthorized');
  if (m === 'GET' && p === '/api/auth/me') return send(res, 200, publicUser(user));
  if (m === 'POST' && p === '/api/auth/resend-verification') {
    const t = id();
    tokens.set(t, { uid: user.uid, kind: 'verify' });
    mail(user.email, 'Verify your email', `http://${req.headers.host}/verify-email-address?token=${t}`);
    return send(res, 202, {});
  }
  if (m === 'POST' && p === '/api/user') {
    user.displayName = body.username || null;
    user.photoURL = body.picurl || null;
    return send(res, 200, publicUser(user));
  }
  const own = (userId) => !userId || userId === user.uid;

  // bots
  let mm;
  if (m === 'GET' && (mm = p.match(/^\/api\/bots\/([^/]+)$/))) {
    if (!own(mm[1])) return err(res, 403, 'Forbidden');
    return send(res, 200, [...bots.values()].filter((b) => b.userid === user.uid));
  }
  if (m === 'GET' && (mm = p.match(/^\/api\/bot-details\/([^/]+)$/))) {
    const b = bots.get(mm[1]);
    return b && b.userid === user.uid ? send(res, 200, b) : err(res, 404, 'Bot not found');
  }
  if (m === 'GET' && (mm = p.match(/^\/api\/bots\/([^/]+)\/chart$/))) {
    const b = bots.get(mm[1]);
    if (!b || b.userid !== user.uid) return err(res, 404, 'Bot not found');
    if (b.state !== 'running') return send(res, 200, { points: [], levels: [], fills: [] });
    const now = Math.floor(Date.now() / 1000);
    let v = b.entryprice;
    const points = Array.from({ length: 120 }, (_, i) => {
      v = v + (Math.sin(i / 6) * b.interval) / 3 + (Math.random() - 0.5) * b.interval * 0.4;
      return { time: now - (120 - i) * 60, value: Number(v.toFixed(4)) };
    });
    const levels = Array.from({ length: b.numoforders }, (_, i) => ({ price: b.entryprice - i * b.interval, kind: 'buy', status: i === 0 ? 'filled' : 'open' }));
    levels.push({ price: b.takeprofit, kind: 'take-profit', status: 'open' });
    const fills = [{ time: points[30].time, price: b.entryprice, side: 'buy', amount: b.ordersize }];
    return send(res, 200, { points, levels, fills });
  }
  if (m === 'POST' && p === '/api/bots') {
    if (!own(body.userId)) return err(res, 403, 'Forbidden');
    const errors = botFromBody(body);
    if (!SYMBOLS.includes(body.symbol)) errors.push({ field: 'symbol', message: 'symbol is not offered' });
    if (errors.length) return err(res, 400, 'Validation failed', errors);
    const b = {
      id: id(), bottype: body.botType, userid: user.uid, exchange: body.exchange, symbol: body.symbol,
      numoforders: Number(body.numOfOrders), ordersize: Number(body.orderSize), interval: Number(body.interval),
      entryprice: Number(body.entryPrice), takeprofit: Number(body.takeProfit), botstatus: false, pid: -1, profit: 0,
      state: 'stopped', ...(body.botType === 'Futures' ? { leverage: Number(body.leverage || 10) } : {}),
    };
    bots.set(b.id, b);
    setTimeout(() => emit(user.uid, 'bot:changed', { id: b.id }), 20);
    return send(res, 201, b);
  }
  if ((m === 'PUT' || m === 'DELETE') && (mm = p.match(/^\/api\/bots\/([^/]+)$/))) {
    const b = bots.get(mm[1]);
    if (!b || b.userid !== user.uid) return err(res, 404, 'Bot not found');
    if (b.state !== 'stopped') return err(res, 409, 'Stop the bot first: a running bot cannot be changed.');
    if (m === 'DELETE') {
      bots.delete(b.id);
      setTimeout(() => emit(user.uid, 'bot:deleted', { id: b.id }), 20);
      return send(res, 204);
    }
    const errors = botFromBody(body);
    if (errors.length) return err(res, 400, 'Validation failed', errors);
    Object.assign(b, {
      exchange: body.exchange, numoforders: Number(body.numOfOrders), ordersize: Number(body.orderSize), interval: Number(body.interval),
      entryprice: Number(body.entryPrice), takeprofit: Number(body.takeProfit), ...(body.leverage ? { leverage: Number(body.leverage) } : {}),
    });
    setTimeout(() => emit(user.uid, 'bot:changed', { id: b.id }), 20);
    return send(res, 200, b);
  }
  if (m === 'GET' && p === '/api/startBot') {
    if (!own(q.userId)) return err(res, 403, 'Forbidden');
    const b = bots.get(q.id);
    if (!b || b.userid !== user.uid) return err(res, 404, 'Bot not found');
    if (b.state === 'stopped') {
      b.state = 'starting';
      b.lasterror = null;
      setTimeout(() => {
        if (b.state !== 'starting') return;
        const bal = 10000;
        if (b.numoforders * b.ordersize * b.entryprice > bal * (b.leverage || 1)) {
          b.state = 'stopped';
          b.lasterror = 'Insufficient balance: the grid costs more than your available USDT.';
          emit(user.uid, 'bot:changed', { id: b.id });
          return;
        }
        b.state = 'running';
        b.botstatus = true;
        b.pid = process.pid;
        b.profit = Number((Math.random() * 20).toFixed(2));
        emit(user.uid, 'bot:status', { id: b.id, botstatus: true, pid: b.pid });
      }, 700);
    }
    return send(res, 202, b);
  }
  if (m === 'GET' && p === '/api/stopBot') {
    if (!own(q.userId)) return err(res, 403, 'Forbidden');
    const b = bots.get(q.id);
    if (!b || b.userid !== user.uid) return err(res, 404, 'Bot not found');
    if (q.cancelAllOrders !== 'true' && q.cancelAllOrders !== 'false') return err(res, 400, 'cancelAllOrders must be true or false');
    if (b.state === 'running' || b.state === 'starting') {
      b.state = 'stopping';
      setTimeout(() => {
        b.state = 'stopped';
        b.botstatus = false;
        b.pid = -1;
        emit(user.uid, 'bot:status', { id: b.id, botstatus: false, pid: -1 });
      }, 500);
    }
    return send(res, 202, b);
  }
  // credentials
  if (m === 'POST' && p === '/api/api-credentials') {
    const a = (body && body.access) || {};
    if (!own(a.userId)) return err(res, 403, 'Forbidden');
    const errors = [];
    if (!['Binance', 'Kucoin'].includes(a.exchange)) errors.push({ field: 'exchange', message: 'Exchange is required' });
    if (!a.apiKey || a.apiKey.length < 5) errors.push({ field: 'apiKey', message: 'API key must be at least 5 characters' });
    if (!a.keySecret || a.keySecret.length < 12) errors.push({ field: 'keySecret', message: 'Secret Key number must be at least 12 characters' });
    if (errors.length) return err(res, 400, 'Validation failed', errors);
    const c = { id: id(), exchange: a.exchange, apikeyid: a.apiKey, userid: user.uid };
    creds.set(c.id, c);
    return send(res, 201, { id: c.id, exchange: c.exchange, apikeyid: c.apikeyid });
  }
  if (m === 'GET' && (mm = p.match(/^\/api\/api-credentials\/([^/]+)$/))) {
    if (!own(mm[1])) return err(res, 403, 'Forbidden');
    return send(res, 200, [...creds.values()].filter((c) => c.userid === user.uid).map(({ id, exchange, apikeyid }) => ({ id, exchange, apikeyid })));
  }
  if (m === 'DELETE' && (mm = p.match(/^\/api\/api-credentials\/([^/]+)$/))) {
    const c = creds.get(mm[1]);
    if (!c || c.userid !== user.uid) return err(res, 404, 'Credential not found');
    creds.delete(c.id);
    return send(res, 204);
  }
  // issue 29: the dashboard's Paper / Testnet / Live badge (the stub is a paper deployment)
  if (m === 'GET' && p === '/api/exchange-mode') return send(res, 200, { mode: 'paper' });
  if (m === 'GET' && (p === '/api/balanceSpot' || p === '/api/balanceFutures')) {
    return send(res, 200, [
      { symbol: 'BTC', exchange: q.exchange, balance: 0.05, available: 0.05 },
      { symbol: 'USDT', exchange: q.exchange, balance: p.endsWith('Spot') ? 10000 : 10000, available: 9876.543 },
    ]);
  }
  if (m === 'GET' && (p === '/api/priceSpot' || p === '/api/priceFutures')) return send(res, 200, price(q.symbol));
  if (m === 'GET' && p === '/api/futuresPositionRisk') return send(res, 200, SYMBOLS.map((s) => ({ symbol: s, leverage: 10 })));
  return err(res, 404, `Cannot ${m} ${p}`);
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, `http://${req.headers.host}`);
  const cookies = parseCookies(req.headers.cookie);
  if (!cookies.csrf_token) {
    res.__csrf = crypto.randomBytes(16).toString('hex');
    res.setHeader('Set-Cookie', `csrf_token=${res.__csrf}; Path=/; SameSite=Lax`);
  }
  const sid = cookies.sid;
  const uid = sid ? sessions.get(sid) : undefined;
  if (url.pathname.startsWith('/api/')) {
    try {
      await api(req, res, url, uid, sid);
    } catch (e) {
      console.error(e);
      err(res, 500, 'stub error');
    }
    return;
  }
  serveStatic(req, res, url.pathname);
});

io = new Server(server, { path: '/socket.io' });
io.use((socket, next) => {
  const uid = sessions.get(parseCookies(socket.handshake.headers.cookie).sid);
  if (!uid) return next(new Error('unauthorized'));
  socket.data.uid = uid;
  next();
});
io.on('connection', (socket) => socket.join(`user:${socket.data.uid}`));

server.listen(PORT, HOST, () => {
  const { port } = server.address();
  console.log(`GridRocket listening on http://${HOST}:${port}`);
});

// Over 400 lines: the whole OpenAPI document (every route's request and answer schemas) in one place, so the contract reads and diffs as one.
import type { OpenAPIObject } from '@nestjs/swagger';
import { EXCHANGES } from '@gridrocket/shared';
import { BACKTEST_STYLES, TIMEFRAMES, backtestPeriodSchema, sweepSchema } from '@gridrocket/backtest';
import { ALERT_CHANNELS, ALERT_KINDS } from '@gridrocket/alerts';
import { BOT_DIRECTIONS, BOT_STYLE_NAMES, RANGE_SETS, SIGNAL_HELD_POSITION_CHOICES, botStyles, createBotSchema, editBotSchema, heldPositionSchema, rangeSchema, saveTemplateSchema, signalBodySchema, signalSettingsSchema, SIGNAL_WINDOW_SECONDS } from '@gridrocket/bots';
import { addCredentialSchema } from '@gridrocket/credentials';
import { exchangeAccounts } from '@gridrocket/exchanges/venues';
import {
  createTokenSchema,
  credentialsSchema,
  SESSION_COOKIE,
  enableSchema,
  forgotPasswordSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
  secondFactorSchema,
  verifyEmailSchema,
} from '@gridrocket/identity/nest';
import { SchemaObject, zodToSchema } from './zod-schema';

/** Issue 40: the owner's standing choice for a held position (libs/bots signal.events.ts). */
const HELD_POSITION = { type: 'string', enum: [...SIGNAL_HELD_POSITION_CHOICES], description: 'what a start signal does with a bot that holds a position: refuse, resume (start with it), sell (sell it at market first)' } as const;

/**
 * The API contract (issue 31): the document @nestjs/swagger builds from the routes, completed with
 * what a client generator needs and the decorators cannot know: request bodies from the very zod
 * schemas the routes parse with (zodToSchema), the answers' schemas, every 4xx in the one error shape
 * of AllExceptionsFilter, the query parameters the handlers read from `@Query()` objects, the
 * security (session cookie + CSRF header), ETag / If-Match / Idempotency-Key and the history's media
 * types. test/openapi-contract.spec.ts validates the result, lints it and checks every route's real
 * answers against it, so a change of a route that is not reflected here fails there.
 */

const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
const num: SchemaObject = { type: 'number' };
const int: SchemaObject = { type: 'integer' };
const str: SchemaObject = { type: 'string' };
const uuid: SchemaObject = { type: 'string', format: 'uuid' };
const bool: SchemaObject = { type: 'boolean' };
const nullable = (s: SchemaObject): SchemaObject => ({ ...s, nullable: true });
// OpenAPI 3.0: `required`, when present, lists at least one name
const obj = (properties: Record<string, SchemaObject>, required: string[] = Object.keys(properties)): SchemaObject => ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const arr = (items: SchemaObject): SchemaObject => ({ type: 'array', items });
/** An answer whose every field is listed: a field the server adds without documenting it fails the contract test. */
const closed = (properties: Record<string, SchemaObject>, required: string[] = Object.keys(properties)): SchemaObject => ({ ...obj(properties, required), additionalProperties: false });
const numOrNull = nullable({ type: 'number' });
/** Issue 42: a bot's direction and style values are the bots context's registry's (libs/bots styles/registry.ts). */
const DIRECTION: SchemaObject = { type: 'string', enum: [...BOT_DIRECTIONS] };
/** Issue 42: the styles' parts of the document (their bodies: libs/bots styles/<style>/, BotStyle.apiSchemas), in the registry's order. */
const styleApis = () => botStyles().flatMap((s) => (s.apiSchemas ? [s.apiSchemas()] : []));
/** Issue 42: the venues a bot, a key or a backtest names (the dashboard is typed by this document). */
const EXCHANGE: SchemaObject = { type: 'string', enum: [...EXCHANGES] };
/** Issue 42: a free-form object (an event's data): every key a value of any kind, as openapi-typescript reads it. */
const anyObject: SchemaObject = { type: 'object', additionalProperties: true };
/** Issue 40: the figures every screen reads (libs/trading money/figures.ts), the same on the bot page, the cards and the performance view. */
const figureFields: Record<string, SchemaObject> = {
  realisedPnl: num,
  realisedToday: num,
  unrealisedPnl: num,
  totalPnl: num,
  feesPaid: num,
  position: num,
  dust: num,
  averageEntry: numOrNull,
  lastPrice: numOrNull,
  capitalInUse: num,
  capitalCommitted: num,
  returnPercent: numOrNull,
  annualisedPercent: { ...numOrNull, description: 'null before 7 days of running' },
  runtimeMs: num,
  running: bool,
  cyclesCompleted: int,
  fills: int,
};
const performanceFields = figureFields;
const botPerformanceHead: Record<string, SchemaObject> = { id: uuid, symbol: str, exchange: str, botType: str, currency: str, direction: DIRECTION };
const equity = arr(closed({ time: num, pnl: num }));
const rung = closed({ price: num, size: num, filled: num, state: { type: 'string', enum: ['open', 'filled', 'cancelled'] }, side: { type: 'string', enum: ['sell'] }, answer: { type: 'boolean', enum: [true] } }, ['price', 'size', 'filled', 'state']);

/** The answers' schemas (what the views and projections return: their TypeScript types, as JSON Schema). */
/** A personal access token as the list shows it (libs/identity access-token.service.ts AccessTokenView). */
const ACCESS_TOKEN_FIELDS: Record<string, SchemaObject> = { id: str, name: str, scopes: arr({ type: 'string', enum: ['read', 'trade', 'keys'] }), createdAt: str, expiresAt: str, expired: bool, lastUsedAt: nullable(str), useCount: int };

/** Issue 42: one combination of a sweep as kept (libs/backtest backtest.events.ts SweepPoint). */
const SWEEP_POINT: SchemaObject = closed(
  {
    style: { type: 'string', enum: [...BACKTEST_STYLES], description: "the combination's grid style (absent in sweeps recorded before issue 32: their request's style)" },
    interval: num,
    numOfOrders: int,
    takeProfit: { ...numOrNull, description: 'null for the styles without a take-profit (neutral, infinity)' },
    profit: numOrNull,
    unrealised: numOrNull,
    totalReturn: numOrNull,
    annualisedReturn: numOrNull,
    maxDrawdownPct: numOrNull,
    cycles: nullable(int),
    fills: nullable(int),
    fees: numOrNull,
    error: { type: 'string', description: 'why the combination cannot trade (its figures are null)' },
  },
  ['interval', 'numOfOrders', 'takeProfit', 'profit', 'unrealised', 'totalReturn', 'annualisedReturn', 'maxDrawdownPct', 'cycles', 'fills', 'fees'],
);
/** Issue 42: the fees and market rules a backtest traded under (libs/backtest backtest.events.ts BacktestTerms). */
const BACKTEST_TERMS: SchemaObject = closed(
  {
    feeBps: { type: 'number', description: 'maker fee per fill, in basis points of its notional' },
    takerFeeBps: num,
    buyFeeIn: { type: 'string', enum: ['quote', 'base'] },
    crossingFill: { type: 'string', enum: ['limit', 'market'] },
    rules: obj({ priceStep: num, amountStep: num, minNotional: num, minAmount: num }, ['priceStep', 'amountStep', 'minNotional']),
    feeSource: { type: 'string', description: 'where the fees come from, in words' },
  },
  ['feeBps', 'rules', 'feeSource'],
);
/** Issue 42: a backtest's fields but its result and sweep (libs/backtest backtest-list.projection.ts BacktestDoc). */
const BACKTEST_FIELDS: Record<string, SchemaObject> = {
  id: uuid,
  userid: str,
  kind: { type: 'string', enum: ['single', 'sweep'] },
  status: { type: 'string', enum: ['running', 'done', 'failed', 'cancelled', 'interrupted'] },
  request: ref('BacktestRun'),
  createdat: str,
  finishedat: nullable(str),
  error: nullable(str),
  terms: nullable(BACKTEST_TERMS),
  candles: nullable(int),
  // issue 40: where the candles came from (null until done, and on backtests done before issue 40)
  history: nullable(
    closed(
      {
        source: { type: 'string', enum: ['venue', 'simulated', 'upload'], description: "venue: the exchange's own candles (ccxt's public OHLCV, cached); simulated: the fixed, seeded history, not market prices (where the server does not reach the venue); upload: the user's CSV" },
        simulated: bool,
        exchange: str,
        market: { type: 'string', enum: ['spot', 'futures'] },
        symbol: str,
        timeframe: str,
        from: { type: 'number', description: 'the period [from, to) in ms (an upload: its first and last candle)' },
        to: num,
        candles: int,
        seed: { type: 'string', description: 'simulated: the seed the candles are made from (the same seed, the same candles)' },
        reason: { type: 'string', description: "simulated: why not the venue's candles" },
        label: { type: 'string', description: 'the history in words, as the dashboard shows it' },
      },
      ['source', 'simulated', 'exchange', 'market', 'symbol', 'timeframe', 'from', 'to', 'candles', 'label'],
    ),
  ),
};
const BACKTEST_REQUIRED = ['id', 'userid', 'kind', 'status', 'request', 'createdat', 'finishedat', 'error'];
/** Issue 42: a backtest's result (libs/backtest backtest.engine.ts BacktestResult, styles.ts StyledBacktestResult); the list's without its curve. */
function backtestResult(withCurve: boolean): SchemaObject {
  const fields: Record<string, SchemaObject> = {
    candles: int, from: num, to: num,
    capital: { type: 'number', description: "the grid's cost (Σ price × amount ÷ leverage): the capital it locks" },
    profit: { type: 'number', description: 'realised profit after fees' },
    unrealised: num, fees: num, cycles: int, fills: int,
    maxDrawdown: num, maxDrawdownPct: { type: 'number', description: 'a fraction of the previous peak' },
    trails: { type: 'integer', description: 'times a trailing-down grid moved its ladder down' },
    timeInMarket: { type: 'number', description: 'fraction of candles that ended holding a position' },
    endEquity: num, totalReturn: num, annualisedReturn: num,
    buyAndHold: closed({ profit: num, totalReturn: num }),
    position: closed({ amount: num, averageEntry: num }),
    ...(withCurve ? { curve: closed({ time: arr(num), equity: arr(num) }) } : {}),
    style: { type: 'string', enum: [...BACKTEST_STYLES], description: "the neutral and infinity grids' results say their style; a ladder's none" },
    pairs: { type: 'integer', description: 'neutral: completed pairs (= cycles)' },
    stepsUp: { type: 'integer', description: 'infinity: completed steps up (sells, = cycles)' },
    stepsDown: { type: 'integer', description: 'infinity: completed steps down (buys)' },
  };
  return closed(fields, Object.keys(fields).filter((k) => !['style', 'pairs', 'stepsUp', 'stepsDown'].includes(k)));
}

const SCHEMAS: Record<string, SchemaObject> = {
  Error: {
    type: 'object',
    description: 'Every 4xx (and the generic 500): the status, a sentence, and for bad input one message per field.',
    properties: {
      statusCode: int,
      message: str,
      errors: arr(obj({ field: { type: 'string', description: 'the input field (dotted path), or body' }, message: str })),
    },
    required: ['statusCode', 'message'],
  },
  Message: closed({ message: str }),
  User: closed({ uid: str, displayName: str, email: str, emailVerified: bool, photoURL: nullable(str) }),
  TwoFactorRequired: closed({ twoFactorRequired: { type: 'boolean', enum: [true] }, message: str }),
  Bot: {
    type: 'object',
    description: 'A bot as the spec returns it: lowercase fields (libs/bots/src/domain/bot.view.ts)',
    properties: {
      id: uuid,
      bottype: { type: 'string', enum: ['Spot', 'Futures'] },
      userid: str,
      exchange: EXCHANGE,
      symbol: str,
      numoforders: int,
      ordersize: num,
      interval: num,
      entryprice: num,
      takeprofit: num,
      botstatus: bool,
      pid: num,
      profit: num,
      leverage: num,
      marginmode: { type: 'string', enum: ['isolated', 'cross'], description: "issue 40: a futures bot's margin mode, set on the venue before its first order (absent: isolated)" },
      state: { type: 'string', enum: ['stopped', 'starting', 'running', 'stopping'] },
      lasterror: nullable(str),
      spacing: { type: 'string', enum: ['absolute', 'percent'] },
      sizescale: num,
      stoplosspercent: num,
      stoplossprice: num,
      trailingdeviation: num,
      reanchor: { type: 'string', enum: ['fixed', 'follow'] },
      reanchorlimit: num,
      traildownlimit: num,
      stoplosspriceabove: num,
      direction: { type: 'string', enum: [...BOT_DIRECTIONS] },
      style: { type: 'string', enum: [...BOT_STYLE_NAMES], description: 'issue 32: an infinity spot grid (docs/infinity.md); its numoforders, ordersize, interval and takeprofit are 0; absent: a ladder' },
      steppercent: num,
      quotevalue: num,
      lowerprice: num,
      initialquote: num,
      name: { type: 'string', maxLength: 60, description: 'issue 40: the name its owner gave it; absent: none' },
      investment: { type: 'number', description: 'issue 40: the total investment in USDT (futures: margin) that sized its orders (ordersize, an infinity grid\'s quotevalue); absent: the order size was given' },
      ordersleftopen: int,
      checkrequestedat: num,
      streamdownsince: { type: 'number', description: "issue 39: the venue's live updates for the bot's account are down since this time (ms since the epoch); absent: live" },
      streamdownreason: { type: 'string', description: 'issue 39: why the live updates are down' },
      ratelimiteduntil: { type: 'number', description: "issue 39: paused by the venue's rate limit: every call to the venue waits until this time (ms since the epoch); absent: not paused" },
      ratelimitstatus: { type: 'integer', description: "issue 39: the venue's answer that paused it: 429 (too much request weight) or 418 (the server's address banned)" },
      streampollms: { type: 'integer', description: "issue 39: how often the bot's fills are polled until the live updates are back (ms)" },
    },
    required: ['id', 'bottype', 'userid', 'exchange', 'symbol', 'numoforders', 'ordersize', 'interval', 'entryprice', 'takeprofit', 'botstatus', 'pid', 'profit', 'state', 'lasterror'],
    additionalProperties: false,
  },
  BotPage: closed({ items: arr(ref('Bot')), total: int, limit: int, offset: int }),
  // issue 40: the auditors' list (libs/bots/src/history/audit-bots.projection.ts, audit.controller.ts)
  AuditBot: closed({
    id: uuid,
    userid: str,
    owner: { ...nullable(str), description: "the owner's email address (null: no such user document)" },
    exchange: EXCHANGE,
    symbol: str,
    bottype: { type: 'string', enum: ['Spot', 'Futures'] },
    status: { type: 'string', enum: ['stopped', 'starting', 'running', 'stopping', 'deleted'] },
    name: nullable(str),
    createdat: str,
    updatedat: str,
    deletedat: nullable(str),
  }),
  Capacity: {
    ...closed({
      venue: str,
      symbol: str,
      ordersAtStart: int,
      placingSeconds: int,
      orderWindows: arr(closed({ rule: str, limit: int, source: str, windowMs: int, label: str, atMost: int, placed: int, exceeded: bool })),
      openOrders: closed({ rule: str, limit: int, source: str, others: int, thisBot: int, total: int, exceeded: bool }),
      weight: closed({ rule: str, limit: num, source: str, label: str, account: num, symbols: int, share: num, budget: num, budgetShareUsed: num, exceeded: bool }),
      exceeded: arr(str),
      refusal: nullable(str),
    }),
    description:
      "What the key can carry if the bot started (issue 39, libs/bots/src/domain/capacity.ts): its orders at start against the venue's order-count windows at the runner's pace on top of those the account has placed in each window (`placed`, from the venue's last X-MBX-ORDER-COUNT-* answer), the open orders on its symbol (the account's other bots' and its own, at most) against the venue's maximum, and the account's steady weight against the install's share of the venue's limit; each limit with its source. `refusal`: the 409 a start would get (null: it fits)",
  },
  Credential: closed(
    {
      id: uuid,
      exchange: { type: 'string', enum: ['Binance', 'Kucoin'] },
      apikeyid: str,
      // only when there is one (a live or testnet key's permissions: docs/credentials.md)
      warnings: arr(closed({ code: { type: 'string', enum: ['no-ip-restriction', 'withdraw-enabled', 'cannot-trade', 'key-refused'] }, message: str })),
    },
    ['id', 'exchange', 'apikeyid'],
  ),
  Balance: closed({ symbol: str, exchange: str, balance: num, available: num }),
  // issue 40: the balances page (libs/credentials/src/exchange-access/balances.service.ts)
  AccountBalances: closed({
    exchange: { type: 'string', enum: ['Binance', 'Kucoin'] },
    market: { type: 'string', enum: ['spot', 'futures'] },
    state: { type: 'string', enum: ['ok', 'no-key', 'unavailable'], description: 'no-key: no API key for the exchange (live, testnet); unavailable: the venue did not answer' },
    message: nullable(str),
    assets: arr(closed({ asset: str, free: num, locked: { ...num, description: 'held by open orders (futures: margin in use)' }, total: num })),
    readAt: { ...numOrNull, description: 'when the venue was read (ms since the epoch)' },
    cached: { ...bool, description: 'served from the last read (at most cacheSeconds old)' },
    read: nullable(closed({ call: str, weight: num, pool: str, source: str })),
  }),
  Accepted: closed({ id: uuid, status: { type: 'string', enum: ['running'] } }),
  Upload: closed({ candlesId: uuid, candles: int, from: num, to: num, name: nullable(str) }),
  Session: closed({ id: str, createdAt: str, lastSeenAt: str, browser: str, address: str, current: bool }),
  AccessToken: closed(ACCESS_TOKEN_FIELDS),
  BotTemplate: closed({
    id: uuid,
    name: str,
    settings: { allOf: [ref('CreateBot')], description: 'The create body\'s fields (botType, exchange, symbol, numOfOrders, orderSize, interval, entryPrice, takeProfit, leverage and the optional risk settings): POST /api/bots takes them as they are' },
    fromBotId: nullable(uuid),
    createdAt: str,
  }),
  AccessTokenCreated: closed({ ...ACCESS_TOKEN_FIELDS, token: { type: 'string', description: 'The token, shown this once: send it as Authorization: Bearer <token>' } }),
  HistoryEvent: {
    type: 'object',
    properties: {
      id: str, revision: int, position: int, type: str,
      data: { ...anyObject, description: "the event's fields (its type's)" },
      // issue 42: the envelope's fields the history shows (who, why, when), others kept as they are
      metadata: { ...obj({ userId: nullable(str), correlationId: nullable(str), causationId: nullable(str), occurredAt: nullable(str), schemaVersion: nullable(int) }, []), additionalProperties: true },
      created: str,
    },
    required: ['id', 'revision', 'position', 'type', 'data', 'metadata', 'created'],
  },
  BotPerformance: closed({ ...botPerformanceHead, ...performanceFields, equity }),
  BotPerformanceRow: closed({ ...botPerformanceHead, ...performanceFields }),
  AccountPerformance: (() => {
    const { position: _p, lastPrice: _l, dust: _d, averageEntry: _a, running: _r, ...fields } = performanceFields;
    const account = { bots: int, botsRunning: int, ...fields, currency: str };
    return closed({ ...account, equity, others: arr(closed({ ...account })), perBot: arr(ref('BotPerformanceRow')) });
  })(),
  Trade: closed({
    fillId: str,
    at: num,
    role: { type: 'string', enum: ['buy', 'take-profit', 'stop-loss', 'liquidation', 'close'] },
    side: { type: 'string', enum: ['buy', 'sell'] },
    price: num,
    amount: num,
    netAmount: num,
    fee: num,
    feeAsset: nullable(str),
    feeCost: numOrNull,
    cycle: int,
    profit: numOrNull,
    cycleProfit: numOrNull,
  }),
  Chart: closed({
    points: arr(closed({ time: num, value: num })),
    levels: arr(closed({ price: num, kind: { type: 'string', enum: ['buy', 'take-profit'] }, status: { type: 'string', enum: ['open', 'filled'] }, side: { type: 'string', enum: ['buy', 'sell'] } })),
    fills: arr(closed({ time: num, price: num, side: { type: 'string', enum: ['buy', 'sell'] }, amount: num })),
    risk: closed({ stopLoss: numOrNull, trailing: nullable(closed({ activation: num, stop: num, deviation: num })), liquidation: numOrNull }),
  }),
  BotSummary: closed({
    ladder: arr(ref('Rung')),
    takeProfit: nullable(rung),
    ...figureFields,
    currency: str,
    direction: DIRECTION,
    runtimeSeconds: num,
    lastRun: nullable(closed({ startedAt: num, endedAt: numOrNull, ms: num })),
    runs: int,
    annualisedReturn: { ...numOrNull, description: 'the same as annualisedPercent' },
    lastError: nullable(str),
    lastErrorAt: numOrNull,
  }),
  Rung: rung,
  BotOverview: closed({
    id: uuid,
    lastPrice: numOrNull,
    position: num,
    dust: num,
    averageEntry: numOrNull,
    unrealisedPnl: num,
    realisedPnl: num,
    realisedToday: num,
    totalPnl: num,
    feesPaid: num,
    fills: int,
    capitalInUse: num,
    capitalCommitted: num,
    running: bool,
    currency: str,
    direction: DIRECTION,
    spark: arr(num),
  }),
  Backtest: closed({ ...BACKTEST_FIELDS, result: nullable(backtestResult(true)), sweep: nullable(closed({ points: arr(SWEEP_POINT), best: nullable(SWEEP_POINT) })) }, BACKTEST_REQUIRED),
  // issue 42: a row of GET /api/backtests (backtests.controller.ts list): no curve, a sweep's best point and count
  BacktestListItem: closed({ ...BACKTEST_FIELDS, result: nullable(backtestResult(false)), sweep: nullable(closed({ best: nullable(SWEEP_POINT), count: int })) }, BACKTEST_REQUIRED),
  // issue 42: what a backtest ran (libs/backtest backtest.events.ts BacktestRequest)
  BacktestRun: obj(
    {
      exchange: EXCHANGE,
      market: { type: 'string', enum: ['spot', 'futures'] },
      symbol: str,
      config: { ...anyObject, description: "the grid as the request gave it (any style: a CreateBot or InfinityBacktest body's grid fields)" },
      timeframe: { type: 'string', enum: Object.keys(TIMEFRAMES) },
      from: num,
      to: num,
      source: { type: 'string', enum: ['paper', 'exchange'], description: "the venue's terms: paper, the paper venue's model of the venue; exchange, the venue's own" },
      candlesId: { ...uuid, description: 'the uploaded candles it ran on (POST /api/backtests/candles)' },
      sweep: { ...anyObject, description: "a sweep's ranges, measure and styles" },
    },
    ['exchange', 'market', 'symbol', 'config', 'timeframe', 'from', 'to'],
  ),
  AlertDelivery: closed(
    { id: str, at: { type: 'string', format: 'date-time' }, channel: { type: 'string', enum: [...ALERT_CHANNELS] }, kind: { type: 'string', enum: [...ALERT_KINDS, 'test'], description: "the alert's kind, or test (a test message)" }, event: str, botid: nullable(str), symbol: nullable(str), title: str, status: str, code: nullable(str), attempts: int, error: nullable(str) },
    ['id', 'at', 'channel', 'kind', 'status'],
  ),
  // Signed signals (issue 32, docs/signals.md)
  SignalSettings: closed({ enabled: bool, url: str, secretLast4: nullable(str), allowBodySecret: bool, windowSeconds: int, heldPosition: HELD_POSITION }),
  SignalSecret: closed({ enabled: bool, url: str, secretLast4: nullable(str), allowBodySecret: bool, windowSeconds: int, heldPosition: HELD_POSITION, secret: { type: 'string', description: 'The signal secret, shown this once' } }),
  SignalTaken: closed(
    {
      id: str,
      action: { type: 'string', enum: ['start', 'stop'] },
      outcome: { type: 'string', enum: ['requested', 'unchanged'] },
      state: str,
      heldPosition: { type: 'string', enum: ['kept', 'sold-first'], description: 'issue 40: what a start did with the position the bot held (absent when it held none)' },
    },
    ['id', 'action', 'outcome', 'state'],
  ),
  // "Send a test" (issue 40): what the receiver answered
  AlertTestResult: closed({
    channel: { type: 'string', enum: [...ALERT_CHANNELS] },
    status: { type: 'string', enum: ['delivered', 'failed', 'refused', 'rate-limited'] },
    code: { ...nullable(int), description: 'the HTTP status (webhook, Telegram) or the SMTP reply code (e-mail); null without an answer' },
    error: { ...nullable(str), description: "the receiver's error in words, null when delivered" },
    at: { type: 'string', format: 'date-time' },
  }),
  AlertSettings: {
    type: 'object',
    properties: {
      kinds: arr({ type: 'string', enum: [...ALERT_KINDS] }),
      email: closed({ enabled: bool }),
      webhook: closed({ enabled: bool, url: nullable(str), secretSet: bool, secretLast4: nullable(str) }),
      telegram: closed({ enabled: bool, chatId: nullable(str), botTokenSet: bool, botTokenLast4: nullable(str) }),
    },
    required: ['kinds', 'email', 'webhook', 'telegram'],
    additionalProperties: false,
  },
};

/**
 * Issue 32: a bot body with its ladder given as a range (libs/bots/src/domain/bot-range.rules.ts): the
 * body's schema without entryPrice, interval, numOfOrders and spacing, with lower, upper, levels and kind.
 */
function ranged(body: SchemaObject): SchemaObject {
  const b = body as SchemaObject & { properties?: Record<string, SchemaObject>; required?: string[] };
  const range = zodToSchema(rangeSchema) as SchemaObject & { properties: Record<string, SchemaObject> };
  const properties = Object.fromEntries(Object.entries(b.properties ?? {}).filter(([k]) => !(RANGE_SETS as readonly string[]).includes(k)));
  const notes: Record<string, string> = {
    lower: 'the last rung\'s price (about: the interval is rounded down to the market\'s price step, so the last rung is at or just above it)',
    upper: 'the entry price (the first, highest rung), rounded down to the market\'s price step',
    levels: 'the number of rungs: a whole number from 2 to 99',
    kind: 'arithmetic (the default: equal price steps, absolute spacing) or geometric (equal ratios, percent spacing)',
  };
  for (const [k, v] of Object.entries(range.properties)) properties[k] = { ...v, description: notes[k] };
  const required = [...(b.required ?? []).filter((k) => !(RANGE_SETS as readonly string[]).includes(k)), 'lower', 'upper', 'levels'];
  return { ...b, description: 'The ladder as a price range: the server stores the entryPrice, interval, numOfOrders and spacing it makes', properties, required };
}

/** Request bodies: the zod schemas the routes parse (what JSON Schema can say of them). */
function requestSchemas(): Record<string, SchemaObject> {
  // the spec's POST /bots also sends status false and pid -1 (product spec section 7; a new bot is stopped); accepted, not read
  const spec = { status: { type: 'boolean', enum: [false], description: "the spec's (a new bot is stopped); not read" }, pid: { type: 'integer', enum: [-1], description: "the spec's (no process yet); not read" } };
  const created = zodToSchema(createBotSchema) as SchemaObject & { properties: Record<string, SchemaObject> };
  const createBot = { ...created, properties: { ...created.properties, ...spec } };
  const styles = styleApis();
  return {
    Register: zodToSchema(registerSchema),
    Credentials: zodToSchema(credentialsSchema),
    VerifyEmail: zodToSchema(verifyEmailSchema),
    ForgotPassword: zodToSchema(forgotPasswordSchema),
    ResetPassword: zodToSchema(resetPasswordSchema),
    Profile: zodToSchema(profileSchema),
    TwoFactorCode: zodToSchema(enableSchema),
    CreateAccessToken: zodToSchema(createTokenSchema),
    SecondFactor: zodToSchema(secondFactorSchema),
    CreateBot: createBot,
    EditBot: zodToSchema(editBotSchema),
    CreateBotRange: ranged(createBot),
    EditBotRange: ranged(zodToSchema(editBotSchema)),
    SaveBotTemplate: zodToSchema(saveTemplateSchema),
    AddCredential: {
      type: 'object',
      description: "The spec's {access: {...}} (the same fields at the top level are accepted too)",
      properties: { access: zodToSchema(addCredentialSchema) },
      required: ['access'],
    },
    // issue 32: the ladder's body (long, short, or the neutral grid with direction neutral), or a style's own (an infinity grid's: BotStyle.apiSchemas)
    BacktestRequest: {
      oneOf: [
        { allOf: [ref('CreateBot'), zodToSchema(backtestPeriodSchema)] },
        ...styles.flatMap((api) => (api.backtestBody ? [api.backtestBody(zodToSchema(backtestPeriodSchema))] : [])),
      ],
    },
    ...Object.assign({}, ...styles.map((api) => api.schemas)),
    SweepRequest: { allOf: [ref('CreateBot'), zodToSchema(backtestPeriodSchema), zodToSchema(sweepSchema)] },
    Signal: { ...zodToSchema(signalBodySchema), description: 'libs/bots/src/signals/signal.rules.ts: with X-Signature only action (and cancelAllOrders) is read; without, id, timestamp and secret are needed too (the bot must allow the secret in the body)' },
    SignalSettingsInput: zodToSchema(signalSettingsSchema),
    HeldPositionInput: { ...zodToSchema(heldPositionSchema), description: 'issue 40: what a start signal does with a bot that holds a position: refuse (409, and an alert), resume (start with it), sell (sell it at market first)' },
    AlertTestInput: { type: 'object', properties: { channel: { type: 'string', enum: [...ALERT_CHANNELS] } }, required: ['channel'] },
    AlertSettingsInput: {
      type: 'object',
      description: 'libs/alerts/src/domain/alert-settings.rules.ts (parsed by hand: the fields it reads)',
      properties: {
        kinds: arr({ type: 'string', enum: [...ALERT_KINDS] }),
        email: obj({ enabled: bool }, []),
        // (null or '' clears a field: issue 42, the dashboard sends null for an empty one)
        webhook: obj({ enabled: bool, url: nullable(str), secret: nullable(str) }, []),
        telegram: obj({ enabled: bool, chatId: nullable(str), botToken: nullable(str) }, []),
      },
    },
  };
}

type Param = { name: string; in: 'query' | 'header' | 'path'; required?: boolean; description?: string; schema: SchemaObject };
interface OpExtra {
  body?: string | { type: string; schema: SchemaObject } | { content: Record<string, SchemaObject> };
  ok?: SchemaObject | null | Record<string, SchemaObject>;
  okHeaders?: Record<string, { description: string; schema: SchemaObject }>;
  /** 4xx statuses besides 401/403 of a signed-in route. */
  errors: number[];
  query?: Param[];
  headers?: Param[];
  public?: boolean;
  /** A second 2xx (login: 202 when a second factor is needed). */
  also?: Record<string, SchemaObject>;
  /**
   * A signed-request route (the signal webhook, issue 32): no session, no CSRF header (the route reads no
   * cookie); the request proves itself with the bot's signal secret.
   */
  signed?: boolean;
}

const q = (name: string, required: boolean, schema: SchemaObject, description?: string): Param => ({ name, in: 'query', required, schema, ...(description ? { description } : {}) });
const exchangeQ = q('exchange', true, { type: 'string', enum: ['Binance', 'Kucoin'] });
const symbolQ = q('symbol', true, str, 'a pair the account\'s venue lists, e.g. BTCUSDT (letters and digits quoted in USDT or USDC; a paper account: its catalogue)');
const userIdQ = q('userId', false, str, "accepted for the spec's compatibility; another user's id is 403");
/** The spec's start and stop calls also send the bot's own fields (product spec section 7): accepted, not read (issue 42: the dashboard sends them). */
const specQ = (fields: Record<string, SchemaObject>): Param[] => Object.entries(fields).map(([name, schema]) => q(name, false, schema, "the spec's call sends it; not read (the stored bot's is used)"));
const botTypeS: SchemaObject = { type: 'string', enum: ['Spot', 'Futures'] };
const pageQ = [q('limit', false, { type: 'integer', minimum: 1, maximum: 100 }, '1 to 100, default 50'), q('offset', false, { type: 'integer', minimum: 0 }, 'from 0, default 0')];
const idempotencyH: Param = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Retry safely: the same key and body answer the first answer and create nothing more; the same key with another body is 422',
  schema: { type: 'string', maxLength: 200 },
};
const etagH = { ETag: { description: "The bot's revision (what an edit's If-Match names)", schema: str } };

/** Bots that should trade and do not, by reason (libs/streaming lease-fleet.ts PAUSE_REASONS). */
const pauses = obj({ ownership: int, 'venue-rate-limit': int, 'venue-errors': int });

/** Per operation (the operationId @nestjs/swagger derives from controller and method). */
const OPERATIONS: Record<string, OpExtra> = {
  // open (more parts of the system report here over time): the fields a monitor reads are required
  SystemController_health: {
    public: true,
    ok: obj(
      { status: { type: 'string', enum: ['ok', 'degraded'] }, eventStore: str, readStore: str, headPosition: str, projectionPosition: str, projectionLag: str, catchUpPercent: num, projectionError: nullable(str), consumers: arr({ type: 'object', properties: { name: str, kind: str, state: str }, required: ['name', 'kind', 'state'] }),
        // the mail outbox, and alert deliveries waiting for a channel (alert mails while the mail server is away); null where not run
        mail: nullable(obj({ state: { type: 'string', enum: ['off', 'idle', 'sending', 'retrying'] }, pending: int, oldestPendingSeconds: num, sent: int, failed: int, skipped: int, lastError: nullable(str) })),
        alerts: nullable(obj({ waiting: int, oldestWaitingSeconds: num, lastError: nullable(str) })),
        // issue 39: each venue's request budget as the install's runners use it; empty on paper
        venues: arr(obj({ venue: str, share: num, limit: num, used: num, usedShare: num, pausedUntil: nullable(num), pauseStatus: nullable(int) })),
        // issue 41: the runners (their heartbeats in the event store, or this process's own): bots trading and paused with why
        runners: nullable(obj({
          ownership: { type: 'string', enum: ['embedded', 'leases'] }, partitions: int, trading: bool, runningBots: int, pausedBots: pauses, unowned: arr(int),
          members: arr(obj({ name: str, instance: nullable(str), pid: int, host: str, alive: bool, heartbeatAgeSeconds: num, partitions: arr(int), running: int, paused: pauses })),
        })) },
      ['status', 'eventStore', 'readStore', 'headPosition', 'projectionLag', 'consumers'],
    ),
    errors: [],
  },
  SystemController_clientConfig: { public: true, ok: closed({ contactEmail: str, social: closed({ twitter: str, telegram: str, github: str }), exchangeSignup: closed(Object.fromEntries(exchangeAccounts().map((a) => [a.exchange.toLowerCase(), str]))), providers: closed({ google: bool, facebook: bool }) }), errors: [] },
  AuthController_csrf: { public: true, ok: closed({ token: str }), errors: [] },
  AuthController_register: { public: true, body: 'Register', ok: ref('User'), errors: [400, 403, 409, 429] },
  AuthController_login: { public: true, body: 'Credentials', ok: ref('User'), also: { '202': ref('TwoFactorRequired') }, errors: [400, 401, 403, 429] },
  AuthController_verifyEmail: { public: true, body: 'VerifyEmail', ok: ref('User'), errors: [400, 403, 429] },
  AuthController_resendVerification: { ok: ref('Message'), errors: [429] },
  AuthController_forgotPassword: { public: true, body: 'ForgotPassword', ok: ref('Message'), errors: [400, 403, 429] },
  AuthController_resetPassword: { public: true, body: 'ResetPassword', ok: ref('Message'), errors: [400, 403, 429] },
  AuthController_logout: { ok: null, errors: [] },
  AuthController_me: { ok: ref('User'), errors: [] },
  UserController_update: { body: 'Profile', ok: ref('User'), errors: [400] },
  SessionsController_list: { ok: closed({ sessions: arr(ref('Session')) }), errors: [] },
  AccessTokensController_list: { ok: closed({ tokens: arr(ref('AccessToken')) }), errors: [] },
  AccessTokensController_create: {
    body: 'CreateAccessToken',
    ok: ref('AccessTokenCreated'),
    errors: [400, 409],
  },
  AccessTokensController_revoke: { ok: null, errors: [404] },
  SessionsController_signOutOthers: { ok: closed({ signedOut: int }), errors: [] },
  SessionsController_signOut: { ok: null, errors: [404] },
  TwoFactorController_status: { ok: closed({ enabled: bool, setupStarted: bool, recoveryCodesLeft: int }), errors: [] },
  TwoFactorController_setup: { ok: closed({ secret: str, otpauthUri: str, qr: str }), errors: [409, 429] },
  TwoFactorController_enable: { body: 'TwoFactorCode', ok: closed({ enabled: bool, recoveryCodes: arr(str), message: str }), errors: [400, 409, 429] },
  // a code or a recovery code (two-factor.service.ts disable: parseSecondFactor; issue 42: the dashboard sends either)
  TwoFactorController_disable: { body: 'SecondFactor', ok: closed({ enabled: bool, message: str }), errors: [400, 409, 429] },
  TwoFactorController_verify: { public: true, body: 'SecondFactor', ok: ref('User'), errors: [400, 401, 403, 429] },
  BotsController_list: { ok: arr(ref('Bot')), errors: [] },
  BotsController_page: { ok: ref('BotPage'), errors: [400], query: pageQ },
  BotsController_create: { body: { type: 'application/json', schema: { oneOf: [ref('CreateBot'), ref('CreateBotRange'), ...styleApis().flatMap((api) => api.createBodies.map(ref))] } }, ok: ref('Bot'), errors: [400, 409, 422, 429], headers: [idempotencyH] },
  BotsController_details: { ok: ref('Bot'), okHeaders: etagH, errors: [404] },
  BotsController_edit: {
    body: { type: 'application/json', schema: { oneOf: [ref('EditBot'), ref('EditBotRange')] } },
    ok: ref('Bot'),
    okHeaders: etagH,
    errors: [400, 404, 409, 412],
    headers: [{ name: 'If-Match', in: 'header', required: false, description: 'The ETag of the bot\'s GET: the edit applies only at that revision (412 otherwise)', schema: str }],
  },
  BotsController_remove: { ok: null, errors: [404, 409] },
  BotTemplatesController_list: { ok: closed({ templates: arr(ref('BotTemplate')) }), errors: [] },
  BotTemplatesController_get: { ok: ref('BotTemplate'), errors: [404] },
  BotTemplatesController_save: { body: 'SaveBotTemplate', ok: ref('BotTemplate'), errors: [400, 404, 409] },
  BotTemplatesController_remove: { ok: null, errors: [404] },
  BotsController_start: {
    ok: ref('Bot'),
    errors: [400, 404, 409],
    query: [q('id', true, uuid, "the bot's id"), userIdQ, q('confirmPosition', false, bool, 'true: start although the bot holds a position (without it such a start is 409)'), ...specQ({ symbol: str, quantity: num, orderCount: int, orderDiff: num, takeProfit: num, exchange: EXCHANGE, entryPrice: num, botType: botTypeS })],
  },
  BotsController_stop: {
    ok: ref('Bot'),
    errors: [400, 404, 409],
    query: [q('id', true, uuid, "the bot's id"), q('cancelAllOrders', true, bool, "true: cancel the bot's open orders; false: leave them on the exchange"), userIdQ, q('closePosition', false, bool, 'true: after the cancels, sell what the bot holds at market (futures: close its position, reduce-only)'), ...specQ({ pid: num, exchange: EXCHANGE, symbol: str, botType: botTypeS })],
  },
  BotsController_check: { ok: closed({ requested: { type: 'boolean', enum: [true] }, pending: { type: 'boolean', enum: [true] }, requestedAt: num }, ['requested', 'requestedAt']), errors: [404, 409] },
  BotsController_capacityOf: {
    ok: ref('Capacity'),
    errors: [400, 404],
    query: [
      exchangeQ,
      symbolQ,
      q('botType', false, { type: 'string', enum: ['Spot', 'Futures'] }, 'default Spot'),
      q('numOfOrders', false, int, 'the grid size (a ladder; a neutral grid: orders on each side); not for an infinity grid'),
      q('direction', false, { type: 'string', enum: [...BOT_DIRECTIONS] }, 'futures: short or neutral; default long'),
      q('style', false, { type: 'string', enum: ['ladder', ...BOT_STYLE_NAMES] }, 'default ladder'),
      q('initialQuote', false, num, 'an infinity grid: its initial buy in USDT (0: none)'),
      q('id', false, uuid, 'the bot being edited: not counted among the others (another user\'s bot: 404)'),
    ],
  },
  BotsController_capacityOfBot: { ok: ref('Capacity'), errors: [404] },
  CredentialsController_add: { body: 'AddCredential', ok: ref('Credential'), errors: [400, 409, 422, 429], headers: [idempotencyH] },
  CredentialsController_list: { ok: arr(ref('Credential')), errors: [] },
  CredentialsController_remove: { ok: null, errors: [404, 409] },
  ExchangesController_exchangeMode: {
    ok: closed({
      mode: { type: 'string', enum: ['paper', 'testnet', 'live'] },
      // issue 39: which feed prices a paper exchange (null otherwise); the venue feed's streams and their state
      feed: nullable(
        closed({
          kind: { type: 'string', enum: ['walk', 'csv', 'venue'], description: 'walk: seeded random walk; csv: a replayed price file; venue: the venues\' public ticker streams' },
          streams: arr(
            closed(
              {
                exchange: { type: 'string', enum: ['Binance', 'Kucoin'] },
                market: { type: 'string', enum: ['spot', 'futures'] },
                live: { ...bool, description: 'false while the stream is down: the paper exchange keeps its last prices' },
                since: { ...numOrNull, description: 'ms since which the stream is in this state; null before its first answer' },
                lastPriceAt: { ...numOrNull, description: 'ms of the last price heard' },
                reason: { ...str, description: 'why it is down' },
              },
              ['exchange', 'market', 'live', 'since', 'lastPriceAt'],
            ),
          ),
        }),
      ),
    }),
    errors: [],
  },
  ExchangesController_balancesPage: {
    ok: closed({ mode: { type: 'string', enum: ['paper', 'testnet', 'live'] }, cacheSeconds: num, accounts: arr(ref('AccountBalances')) }),
    errors: [400],
    query: [q('exchange', false, { type: 'string', enum: ['Binance', 'Kucoin'] }, 'only this exchange'), q('market', false, { type: 'string', enum: ['spot', 'futures'] }, 'only this market'), userIdQ],
  },
  ExchangesController_balanceSpot: { ok: arr(ref('Balance')), errors: [400, 409], query: [exchangeQ, userIdQ] },
  ExchangesController_balanceFutures: { ok: arr(ref('Balance')), errors: [400, 409], query: [exchangeQ, userIdQ] },
  ExchangesController_priceSpot: { ok: num, errors: [400, 409], query: [exchangeQ, symbolQ, userIdQ] },
  ExchangesController_priceFutures: { ok: num, errors: [400, 409], query: [exchangeQ, symbolQ, userIdQ] },
  ExchangesController_futuresPositionRisk: { ok: arr(closed({ symbol: str, leverage: num })), errors: [400, 409], query: [exchangeQ, userIdQ] },
  BotChartController_chart: { ok: ref('Chart'), errors: [404] },
  BotChartController_summary: { ok: ref('BotSummary'), errors: [404] },
  BotChartController_overview: { ok: arr(ref('BotOverview')), errors: [] },
  BotChartController_marketRules: {
    // issue 39: the venue's maximums where it states them, with its names of them (docs/exchanges.md "Any pair the venue lists")
    ok: closed(
      {
        priceStep: num, amountStep: num, minNotional: num, minAmount: num, makerFee: num, takerFee: num,
        maxAmount: num, maxNotional: num, maxNumOrders: num,
        percentPrice: closed({ bidUp: num, bidDown: num, askUp: num, askDown: num }, []),
        ruleNames: closed({ maxAmount: str, maxNotional: str, maxNumOrders: str, percentPrice: str }, []),
      },
      ['priceStep', 'amountStep', 'minNotional', 'minAmount'],
    ),
    errors: [400, 409],
    query: [exchangeQ, symbolQ, q('botType', false, { type: 'string', enum: ['Spot', 'Futures'] }, 'default Spot')],
  },
  MoneyController_trades: { ok: closed({ items: arr(ref('Trade')), total: int, limit: int, offset: int }), errors: [400, 404], query: pageQ },
  MoneyController_tradesCsv: { ok: { 'text/csv': str }, errors: [404] },
  MoneyController_performance: { ok: ref('BotPerformance'), errors: [404] },
  MoneyController_account: { ok: ref('AccountPerformance'), errors: [] },
  BacktestsController_upload: {
    body: { type: 'text/csv', schema: { type: 'string', description: 'time,open,high,low,close[,volume] per line' } },
    ok: ref('Upload'),
    errors: [400, 413, 429],
    query: [q('name', false, str, 'a name for the upload')],
  },
  BacktestsController_listUploads: { ok: arr(closed({ candlesId: uuid, candles: int, from: num, to: num, name: nullable(str), bytes: int })), errors: [] },
  BacktestsController_removeUpload: { ok: null, errors: [404] },
  BacktestsController_request: { body: 'BacktestRequest', ok: ref('Accepted'), errors: [400, 409, 429] },
  BacktestsController_list: { ok: arr(ref('BacktestListItem')), errors: [] },
  BacktestsController_sweep: { body: 'SweepRequest', ok: ref('Accepted'), errors: [400, 409, 429] },
  BacktestsController_cancel: { ok: null, errors: [404, 409] },
  BacktestsController_get: { ok: ref('Backtest'), errors: [404] },
  AlertsController_get: { ok: ref('AlertSettings'), errors: [] },
  AlertsController_save: { body: 'AlertSettingsInput', ok: ref('AlertSettings'), errors: [400] },
  AlertsController_deliveries: { ok: arr(ref('AlertDelivery')), errors: [], query: [q('limit', false, { type: 'integer', minimum: 1, maximum: 200 }, '1 to 200, default 50')] },
  AlertsController_test: { body: 'AlertTestInput', ok: ref('AlertTestResult'), errors: [400, 429] },
  SignalSettingsController_get: { ok: ref('SignalSettings'), errors: [404] },
  SignalSettingsController_enable: { body: 'SignalSettingsInput', ok: ref('SignalSecret'), errors: [400, 404, 409] },
  SignalSettingsController_rotate: { body: 'SignalSettingsInput', ok: ref('SignalSecret'), errors: [400, 404, 409] },
  SignalSettingsController_disable: { ok: null, errors: [404] },
  SignalSettingsController_choose: { body: 'HeldPositionInput', ok: ref('SignalSettings'), errors: [400, 404] },
  SignalWebhookController_receive: {
    public: true,
    signed: true,
    body: { content: { 'application/json': ref('Signal'), 'text/plain': { type: 'string', enum: ['start', 'stop'], description: 'with X-Signature only' } } },
    ok: ref('SignalTaken'),
    errors: [400, 401, 404, 409, 413, 429],
    headers: [
      { name: 'X-Signature', in: 'header', required: false, description: 'sha256=<hex HMAC-SHA256 of "<X-Signal-Timestamp>.<raw body>" with the bot\'s signal secret>; without it the JSON body carries id, timestamp and secret (TradingView)', schema: { type: 'string', pattern: '^sha256=[0-9a-fA-F]{64}$' } },
      { name: 'X-Signal-Timestamp', in: 'header', required: false, description: `With X-Signature: the signal's time in Unix seconds, within ${SIGNAL_WINDOW_SECONDS} s of the server's`, schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
      { name: 'X-Signal-Id', in: 'header', required: false, description: 'With X-Signature: an id of its own for each signal (a second signal with it is 409)', schema: { type: 'string', pattern: '^[A-Za-z0-9._:@+-]{1,100}$' } },
    ],
  },
  AuditController_me: { ok: closed({ auditor: bool, auditorAddress: bool }), errors: [] },
  AuditController_list: {
    ok: closed({ items: arr(ref('AuditBot')), total: int, limit: int, offset: int }),
    errors: [400],
    query: [
      q('owner', false, str, "a user's id or email address"),
      q('exchange', false, { type: 'string', enum: ['Binance', 'Kucoin'] }),
      q('botType', false, { type: 'string', enum: ['Spot', 'Futures'] }, 'the market type'),
      q('symbol', false, str, 'a pair, e.g. BTCUSDT'),
      q('status', false, { type: 'string', enum: ['stopped', 'starting', 'running', 'stopping', 'deleted'] }),
      ...pageQ,
    ],
  },
  AuditController_one: { ok: closed({ bot: ref('AuditBot'), view: nullable(SCHEMAS.Bot) }), errors: [404] },
  HistoryController_history: {
    ok: { 'application/json': arr(ref('HistoryEvent')), 'application/x-ndjson': { type: 'string', description: 'one HistoryEvent per line' }, 'text/csv': str },
    errors: [400, 404, 406],
    query: [q('format', false, { type: 'string', enum: ['json', 'ndjson', 'csv'] }, 'or ask with Accept; default json')],
  },
  HistoryController_state: {
    ok: closed({ botId: str, at: { type: 'string', format: 'date-time' }, revision: nullable(int), position: nullable(int), eventsApplied: int, state: { ...obj({ exists: bool, deleted: bool, status: str }, []), additionalProperties: true, description: "the decider's state of the bot then" }, view: nullable(SCHEMAS.Bot), next: arr(str) }),
    errors: [400, 404], query: [q('at', false, str, 'ISO-8601 time; default now')] },
};

/** One line per operation (the dashboard's words for it). */
const SUMMARIES: Record<string, string> = {
  SystemController_health: 'Health of the event store, read store and consumers',
  SystemController_clientConfig: "The dashboard's public settings (links, sign-in providers)",
  AuthController_csrf: 'Issue the CSRF token (cookie and body)',
  AuthController_register: 'Create an account and sign in',
  AuthController_login: 'Sign in (202 when a second factor is needed)',
  AuthController_verifyEmail: "Confirm the email address with the mail's token",
  AuthController_resendVerification: 'Send the verification mail again',
  AuthController_forgotPassword: 'Mail a password reset link',
  AuthController_resetPassword: "Choose a new password with the mail's token",
  AuthController_logout: 'Sign out',
  AuthController_me: 'The signed-in user',
  UserController_update: 'Update the profile',
  SessionsController_list: "The user's sessions",
  AccessTokensController_list: "The user's personal access tokens (never the tokens themselves)",
  AccessTokensController_create: 'Create a personal access token (its value is answered this once)',
  AccessTokensController_revoke: 'Revoke a personal access token',
  SessionsController_signOutOthers: 'Sign out every other session',
  SessionsController_signOut: 'Sign out one session',
  TwoFactorController_status: 'Whether two-factor sign-in is on',
  TwoFactorController_setup: 'Start two-factor setup: a new secret and QR code',
  TwoFactorController_enable: 'Turn two-factor sign-in on with a code: the recovery codes',
  TwoFactorController_disable: 'Turn two-factor sign-in off with a code',
  TwoFactorController_verify: 'Complete a sign-in with a code or a recovery code',
  BotsController_list: "A user's bots (the spec's GET /bots/{userId}; GET of /api/bots/{id} with the user's id)",
  BotsController_page: 'The bots, a page at a time',
  BotsController_create: 'Create a bot',
  BotsController_details: 'One bot, with its revision as ETag',
  BotsController_edit: "Edit a bot (If-Match: the ETag of its GET)",
  BotsController_remove: 'Delete a bot',
  BotTemplatesController_list: "The user's bot templates, by name",
  BotTemplatesController_get: 'One bot template',
  BotTemplatesController_save: "Save a bot's settings (botId) or a form's (settings) as a template",
  BotTemplatesController_remove: 'Delete a bot template',
  BotsController_start: 'Start a bot',
  BotsController_stop: 'Stop a bot',
  BotsController_check: 'Check a running bot against the exchange now',
  BotsController_capacityOf: 'What the key can carry if a bot of these values started (venue limits, issue 39)',
  BotsController_capacityOfBot: "What the key can carry if this bot started (its start's capacity check)",
  CredentialsController_add: 'Add an API key (the secret never leaves the server again)',
  CredentialsController_list: "A user's API keys (GET of /api/api-credentials/{id} with the user's id)",
  CredentialsController_remove: 'Delete an API key',
  ExchangesController_exchangeMode: 'Paper, testnet or live, and the paper prices\' feed',
  ExchangesController_balancesPage: "The user's balances per venue, market and asset (free and locked)",
  ExchangesController_balanceSpot: 'Spot balances on an exchange',
  ExchangesController_balanceFutures: 'Futures balances on an exchange',
  ExchangesController_priceSpot: 'Spot price of a pair',
  ExchangesController_priceFutures: 'Futures price of a pair',
  ExchangesController_futuresPositionRisk: 'Futures leverage per pair',
  BotChartController_chart: "A bot's chart: prices, grid levels, fills, risk lines",
  BotChartController_summary: "A bot's ladder, position and results",
  BotChartController_overview: 'Every bot at a glance',
  BotChartController_marketRules: "A market's steps, minimums and fees",
  MoneyController_trades: "A bot's completed trades, a page at a time",
  MoneyController_tradesCsv: "A bot's completed trades as CSV (tax-report columns)",
  MoneyController_performance: "A bot's performance",
  MoneyController_account: 'The performance of all bots',
  BacktestsController_upload: 'Upload candles (CSV) for backtests',
  BacktestsController_listUploads: 'The uploaded candle files',
  BacktestsController_removeUpload: 'Delete an uploaded candle file',
  BacktestsController_request: 'Run a backtest',
  BacktestsController_list: 'The backtests',
  BacktestsController_sweep: 'Run a parameter sweep',
  BacktestsController_cancel: 'Cancel a running backtest',
  BacktestsController_get: 'One backtest and its result',
  AlertsController_get: "A user's alert settings",
  AlertsController_save: "Save a user's alert settings",
  AlertsController_deliveries: "A user's recent alert deliveries",
  AlertsController_test: 'Send a test message on one of the alert channels and answer what the receiver said',
  HistoryController_history: "A bot's event history (JSON, NDJSON or CSV)",
  SignalSettingsController_get: "A bot's signal webhook (never its secret)",
  SignalSettingsController_enable: "Enable a bot's signal webhook (its secret is answered this once)",
  SignalSettingsController_rotate: "A new signal secret for a bot (the old one stops at once; answered this once)",
  SignalSettingsController_disable: "Disable a bot's signal webhook",
  SignalSettingsController_choose: 'Choose what a start signal does with a bot that holds a position',
  SignalWebhookController_receive: 'Start or stop a bot by a signed signal (TradingView, scripts): no session, no CSRF header',
  HistoryController_state: 'A bot as it was at a time',
  AuditController_me: 'Whether the signed-in user reads as an auditor',
  AuditController_list: "Auditors: every user's bots (deleted ones too), filtered, a page at a time",
  AuditController_one: 'Auditors: one bot, read-only (a deleted one as it last was)',
};

const REASONS: Record<number, string> = {
  400: 'Bad input: a message per field',
  401: 'Not signed in (the signal webhook: the signature or secret does not match)',
  403: 'No valid CSRF token, or a userId that is not the signed-in user',
  404: 'Not found (or not yours)',
  406: 'A media type the route cannot produce',
  409: 'Conflicts with the current state',
  412: 'If-Match names a stale revision',
  413: 'The body is too large',
  422: 'The Idempotency-Key was used with another request',
  429: 'Too many requests (see Retry-After)',
};

/** The pairs of paths that differ only by the parameter's name: one path item each, `{id}`. */
const MERGED: Record<string, string> = { '/api/bots/{userId}': '/api/bots/{id}', '/api/api-credentials/{userId}': '/api/api-credentials/{id}' };

const STATE_CHANGING = new Set(['post', 'put', 'delete', 'patch']);
const STATE_CHANGING_GETS = new Set(['BotsController_start', 'BotsController_stop']);

type Op = { operationId: string; parameters?: Param[]; requestBody?: unknown; responses: Record<string, unknown>; security?: unknown; tags?: string[]; summary?: string };

/**
 * `tokenScopes`: per operationId, the personal access token scope the route takes (null: tokens refused),
 * from the routes' own metadata (token-scopes.ts); absent: no operation declares the bearer scheme.
 */
/** The X-TOTP header of the operations FreshCodeGuard covers (fresh-code-routes.ts; docs/two-factor.md). */
const totpH: Param = {
  name: 'X-TOTP',
  in: 'header',
  required: false,
  description: 'With two-factor sign-in on: a current code from the authenticator app (403 with the field totp without it). It is spent only once the request would succeed: a request refused for its body or the state is refused first (issue 40)',
  schema: { type: 'string', maxLength: 20 },
};

/** `freshCode`: the operationIds whose handler needs a fresh two-factor code (fresh-code-routes.ts). */
export function apiContract(doc: OpenAPIObject, tokenScopes: ReadonlyMap<string, string | null> = new Map(), freshCode: ReadonlySet<string> = new Set()): OpenAPIObject {
  const requests = requestSchemas();
  const clash = Object.keys(requests).filter((name) => name in SCHEMAS);
  if (clash.length) throw new Error(`apiContract: schema names used twice: ${clash.join(', ')}`);
  const schemas = { ...SCHEMAS, ...requests };
  const out = doc as unknown as { paths: Record<string, Record<string, Op>>; components: Record<string, unknown>; servers?: unknown[] };
  if (!out.servers?.length) out.servers = [{ url: '/', description: 'This server (every path starts with /api)' }];
  out.components = {
    ...(out.components ?? {}),
    schemas,
    securitySchemes: {
      session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by login, register or verify' },
      csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The csrf_token cookie\'s value (GET /api/auth/csrf), on every state-changing call with the session' },
      signalSignature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: "The signal webhook's HMAC (docs/signals.md): sha256=<hex HMAC-SHA256 of \"<X-Signal-Timestamp>.<raw body>\" with the bot's signal secret>. A TradingView alert, which cannot set headers, sends the secret in its JSON message instead (where the bot allows it)" },
      bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token (grt_…, My account → Access tokens): no CSRF header, and never together with the session cookie. The scope each operation needs is in its description (docs/identity.md)' },
    },
  };
  const paths: Record<string, Record<string, Op>> = {};
  for (const [path, item] of Object.entries(out.paths)) {
    const target = MERGED[path] ?? path;
    for (const [method, op] of Object.entries(item)) {
      complete(path, target, method, op, tokenScopes.get(op.operationId) ?? null, freshCode.has(op.operationId));
      (paths[target] ??= {})[method] = op;
    }
  }
  out.paths = paths;
  return doc;
}

function complete(path: string, target: string, method: string, op: Op, tokenScope: string | null, freshCode = false): void {
  const extra = OPERATIONS[op.operationId];
  // A route not described here is left as Nest made it (the app still starts): the contract test's lint
  // names it (no summary, no schemas, no 4xx) until OPERATIONS and SUMMARIES describe it.
  if (!extra || !SUMMARIES[op.operationId]) return;
  op.summary = SUMMARIES[op.operationId];
  // parameters: the path's (renamed where merged), then the query and headers the handler reads
  const params: Param[] = [];
  for (const name of [...target.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
    const was = path === target ? name : 'userId';
    params.push({ name, in: 'path', required: true, schema: str, description: was === 'userId' ? 'the user\'s id (this route lists the signed-in user\'s)' : `the ${name}` });
  }
  const declared = new Set<string>();
  for (const p of [...(extra.query ?? []), ...(extra.headers ?? []), ...(freshCode ? [totpH] : [])]) {
    params.push(p);
    declared.add(`${p.in}:${p.name}`);
  }
  for (const p of op.parameters ?? []) if (p.in !== 'path' && !declared.has(`${p.in}:${p.name}`)) params.push({ ...p, schema: p.schema ?? str });
  op.parameters = params;
  if (extra.body && typeof extra.body === 'object' && 'content' in extra.body) {
    op.requestBody = { required: true, content: Object.fromEntries(Object.entries(extra.body.content).map(([t, schema]) => [t, { schema }])) };
  } else if (extra.body) {
    const { type, schema } = typeof extra.body === 'string' ? { type: 'application/json', schema: { $ref: `#/components/schemas/${extra.body}` } } : extra.body;
    op.requestBody = { required: true, content: { [type]: { schema } } };
  }
  // answers: the 2xx Nest saw (@HttpCode), its schema; then every 4xx in the error shape
  const okStatus = Object.keys(op.responses).find((s) => s.startsWith('2')) ?? '200';
  const responses: Record<string, unknown> = {};
  const content = (ok: NonNullable<OpExtra['ok']>) => {
    const isMap = Object.keys(ok).some((k) => k.includes('/'));
    return isMap ? Object.fromEntries(Object.entries(ok as Record<string, SchemaObject>).map(([t, s]) => [t, { schema: s }])) : { 'application/json': { schema: ok } };
  };
  responses[okStatus] = {
    description: extra.ok === null ? 'Done (no content)' : 'OK',
    ...(extra.ok ? { content: content(extra.ok) } : {}),
    ...(extra.okHeaders ? { headers: extra.okHeaders } : {}),
  };
  for (const [status, schema] of Object.entries(extra.also ?? {})) responses[status] = { description: 'OK, with a next step', content: { 'application/json': { schema } } };
  const changing = STATE_CHANGING.has(method) || STATE_CHANGING_GETS.has(op.operationId);
  const errors = new Set(extra.errors);
  if (!extra.public) errors.add(401);
  if ((changing && !extra.signed) || !extra.public) errors.add(403); // CSRF, or another user's userId
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: REASONS[status] ?? 'Client error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: int } } } : {}),
    };
  }
  op.responses = responses;
  // security: public routes none (but the CSRF header on their POSTs); signed-in: the cookie, plus the header when changing
  // signed (the signal webhook): the X-Signature HMAC, or none in the header (the secret in the body)
  const security: Record<string, string[]>[] = extra.signed ? [{ signalSignature: [] }, {}] : extra.public ? (changing ? [{ csrf: [] }] : []) : [changing ? { session: [], csrf: [] } : { session: [] }];
  op.security = security;
  if (!extra.public && tokenScope) {
    security.push({ bearer: [] }); // OpenAPI 3: an http scheme lists no scopes; the description names it
    (op as { description?: string }).description = `${(op as { description?: string }).description ? `${(op as { description?: string }).description} ` : ''}With a personal access token: the \`${tokenScope}\` scope.`;
  }
}

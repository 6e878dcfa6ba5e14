import { AlertRateLimit } from './alert-rate';
import { WATCHDOG_EVENT_TYPES } from './alert.kinds';
import { alertOf, testAlert } from './alert-mapping';
import { isPrivateHostLiteral, parseAlertSettings } from './alert-settings.rules';

const bot = { botId: 'b1', userId: 'u1', symbol: 'BTCUSDT', exchange: 'Binance' };
const ev = (type: string, data: unknown) => ({ id: 'e1', type, data, occurredAt: '2026-01-01T00:00:00.000Z' });

describe('alertOf: which bot event is which alert', () => {
  it.each([
    ['CycleCompleted', { cycle: 2, profit: 1.5 }, bot, 'cycle'],
    ['CycleCompleted', { cycle: 2, profit: 1.5 }, { ...bot, trailingDeviation: 1 }, 'trailingTakeProfit'],
    ['BotFailed', { reason: 'Stop-loss triggered at 50 (stop level 51): the position was sold at market, loss 3 USDT' }, bot, 'stopLoss'],
    ['BotFailed', { reason: 'The exchange rejected the API key (invalid key, secret, passphrase, IP or permissions).' }, bot, 'keyRejected'],
    // the runner's reason when the venue refuses the key (libs/trading/src/runner/bot-task.ts, keyRefusedReason)
    ['BotFailed', { reason: "Binance rejected the bot's API key (invalid or deleted key, secret, passphrase, IP or permissions), so the bot stopped." }, bot, 'keyRejected'],
    ['BotStartFailed', { reason: 'Insufficient balance' }, bot, 'botFailed'],
    ['BotFailed', { reason: 'The grid cannot continue' }, bot, 'botFailed'],
    [WATCHDOG_EVENT_TYPES.drift, { botId: 'b1', summary: 'Order 3 was cancelled on the exchange: placed again' }, bot, 'drift'],
    [WATCHDOG_EVENT_TYPES.notTrading, { botId: 'b1', summary: 'No resting buy for 2 h' }, bot, 'notTrading'],
  ])('%s %j → %s', (type, data, b, kind) => {
    expect(alertOf(ev(type, data), b)?.kind).toBe(kind);
  });

  it('says what the watchdog found in words, without order ids', () => {
    const drift = alertOf(ev('BotDriftDetected', { botId: 'b1', run: 1, kind: 'missed-fill', subject: 'gr-b1-r1-c2-l3', expected: 'open buy 0.01 at 94,000', actual: 'filled 0.01', action: 'repaired', at: 0 }), bot)!;
    expect(drift.text).toMatch(/^Your bot b1 \(BTCUSDT, Binance spot\) differs from the exchange\. Found a fill the bot had missed \(expected open buy 0\.01 at 94,000, the exchange has filled 0\.01\)\. It was repaired\.$/);
    expect(drift.text).not.toContain('gr-b1');
    const idle = alertOf(ev('BotNotTrading', { botId: 'b1', run: 1, reason: 'no-resting-order', detail: 'No buy has rested for 2 h where the ladder needs one.', at: 0 }), bot)!;
    expect(idle.text).toContain('No buy has rested for 2 h');
    expect(idle.text).not.toContain('no-resting-order');
  });

  it("removes client order ids from the runner's reasons", () => {
    const failed = alertOf(ev('BotFailed', { reason: 'The buy order gr-p7pyf1zn-1-b2 at 59000 was cancelled on the exchange outside GridRocket; the grid cannot continue without it' }), bot)!;
    expect(failed.text).toContain('The buy order at 59000 was cancelled on the exchange outside GridRocket');
    expect(failed.text).not.toMatch(/gr-/);
    const again = alertOf(ev('BotFailed', { reason: 'The buy order gr-p7pyf1zn-1-b2r3 at 59000 was cancelled on the exchange outside GridRocket' }), bot)!;
    expect(again.text).not.toMatch(/gr-|r3/);
    const replaced = alertOf(ev('BotDriftDetected', { botId: 'b1', run: 1, kind: 'order-missing', subject: 'gr-p7pyf1zn-1-b2', expected: 'buy 0.01 at 59000', actual: 'cancelled on the exchange outside GridRocket', action: 'repaired', replacedBy: 'gr-p7pyf1zn-1-b2r1', at: 0 }), bot)!;
    expect(replaced.text).toMatch(/Found an order missing on the exchange \(expected buy 0\.01 at 59000, the exchange has cancelled on the exchange outside GridRocket\)\. It was placed again\.$/);
    expect(replaced.text).not.toMatch(/gr-/);
  });

  it('says what a liquidation cost the bot as its profit and figures count it (issue 40), the venue\'s figure in older events', () => {
    const liq = { botId: 'b1', run: 1, fillId: 'l1', clientOrderId: 'autoclose-1', side: 'sell', price: 90250, amount: 0.01, realized: -47.5, at: 0 };
    const futures = { ...bot, botType: 'Futures' };
    expect(alertOf(ev('PositionLiquidated', { ...liq, profit: -47.69 }), futures)!.text).toBe('Binance liquidated the position of your bot b1 (BTCUSDT, Binance futures): 0.01 closed at 90250, realised -47.69 USDT. The bot stopped.');
    expect(alertOf(ev('PositionLiquidated', liq), futures)!.text).toContain('realised -47.5 USDT');
  });

  it("says a bot is paused by the venue's rate limit, why, and when it resumes (issue 39)", () => {
    const until = Date.UTC(2026, 10, 29, 4, 30, 5);
    const ban = alertOf(ev('VenueRateLimited', { botId: 'b1', run: 1, venue: 'binance', status: 418, until, at: until - 120_000 }), bot)!;
    expect(ban.kind).toBe('notTrading');
    expect(ban.title).toBe("Paused by the venue's rate limit: bot b1 (BTCUSDT, Binance spot)");
    expect(ban.text).toBe("Your bot b1 (BTCUSDT, Binance spot) is paused by the venue's rate limit: Binance banned the server's address for too many requests (418). It resumes by itself at 2026-11-29 04:30:05 UTC.");
    const limited = alertOf(ev('VenueRateLimited', { botId: 'b1', run: 1, venue: 'binance', status: 429, until, at: until - 20_000 }), bot)!;
    expect(limited.text).toContain("refused the server's requests for too much weight (429)");
    expect(alertOf(ev('VenueRateLimitLifted', { botId: 'b1', run: 1, until, at: until }), bot)).toBeNull();
  });

  it('names the bot (its name, else "bot" and the start of its id), its pair, exchange and market, gives amounts with their currency and links to its page (issue 40)', () => {
    const three = ['aaaaaaaa-1111-4111-8111-111111111111', 'bbbbbbbb-2222-4222-8222-222222222222', 'cccccccc-3333-4333-8333-333333333333'];
    const [named, spot, futures] = [
      alertOf(ev('CycleCompleted', { cycle: 2, profit: 1.5 }), { ...bot, botId: three[0], name: '  Night\ngrid  ', url: 'https://grid.example/bots/a' })!,
      alertOf(ev('CycleCompleted', { cycle: 2, profit: 1.5 }), { ...bot, botId: three[1] })!,
      alertOf(ev('CycleCompleted', { cycle: 2, profit: 1.5 }), { ...bot, botId: three[2], botType: 'Futures', symbol: 'BTCUSDC' })!,
    ];
    expect(named.title).toBe('Cycle completed: "Night grid" (BTCUSDT, Binance spot)');
    expect(named.text).toBe('Your "Night grid" (BTCUSDT, Binance spot) completed cycle 2: profit 1.5 USDT.');
    expect(named).toMatchObject({ botName: 'Night grid', botLabel: '"Night grid"', market: 'spot', currency: 'USDT', url: 'https://grid.example/bots/a' });
    expect(spot.title).toBe('Cycle completed: bot bbbbbbbb (BTCUSDT, Binance spot)');
    expect(futures.text).toBe('Your bot cccccccc (BTCUSDC, Binance futures) completed cycle 2: profit 1.5 USDC.');
    expect(new Set([named, spot, futures].map((a) => a.title)).size).toBe(3);
  });

  it('a refused signal is an alert naming the bot and the reason; a taken one is not (issue 40)', () => {
    const held = alertOf(ev('SignalHandled', { botId: 'b1', signalId: 's-1', action: 'start', outcome: 'refused', status: 409, reason: 'The bot holds 0.00999 BTC (bought for 599.40 USDT).', refusal: 'position-held' }), { ...bot, name: 'Night grid' })!;
    expect(held.kind).toBe('signalRefused');
    expect(held.title).toBe('Signal refused: "Night grid" (BTCUSDT, Binance spot)');
    expect(held.text).toMatch(/^A start signal for your "Night grid" \(BTCUSDT, Binance spot\) was refused \(409\): The bot holds 0\.00999 BTC \(bought for 599\.40 USDT\)\. .*"sell it first" under Signals/);
    const forged = alertOf(ev('SignalRefused', { botId: 'b1', reason: 'bad-signature', status: 401, message: 'The signature does not match', signalId: 'x', suppressed: 3, at: 1 }), bot)!;
    expect(forged.text).toBe("A request to the signal webhook of your bot b1 (BTCUSDT, Binance spot) was refused (401): its signature or secret does not match the bot's secret (The signature does not match). 3 more were refused before it in the same minute.");
    expect(alertOf(ev('SignalHandled', { botId: 'b1', signalId: 's-2', action: 'start', outcome: 'requested', status: 202, reason: null }), bot)).toBeNull();
  });

  it('a test names the channel and links to the alert settings', () => {
    const t = testAlert('u1', 'telegram', 'test-1', '2026-01-01T00:00:00.000Z', 'https://grid.example');
    expect(t).toMatchObject({ kind: 'test', title: 'Test alert (Telegram)', url: 'https://grid.example/alerts' });
    expect(t.text).toContain('alerts on this channel (Telegram) reach you');
  });

  it('ignores the other events', () => {
    expect(alertOf(ev('OrderPlaced', {}), bot)).toBeNull();
  });

  it('keeps the watchdog sentence and removes anything that looks like a token from it', () => {
    const a = alertOf(ev('BotDriftDetected', { summary: 'fill missed; token 123456789:AAE-secretPartOfTheToken_abcdefghijKLMN' }), bot)!;
    expect(a.text).toContain('fill missed');
    expect(a.text).not.toContain('secretPartOfTheToken');
  });
});

describe('webhook URLs', () => {
  it.each(['127.0.0.1', 'localhost', '10.1.2.3', '192.168.0.10', '172.20.0.1', '169.254.169.254', '[::1]', '0.0.0.0', '100.64.0.1', '[fd00::1]', '::ffff:127.0.0.1'])('%s is private', (h) => {
    expect(isPrivateHostLiteral(h)).toBe(true);
  });
  it.each(['hooks.example.com', '8.8.8.8', '172.32.0.1'])('%s is not', (h) => {
    expect(isPrivateHostLiteral(h)).toBe(false);
  });
  it('are refused when private, unless the setting allows them', () => {
    const body = { webhook: { enabled: true, url: 'http://127.0.0.1:9/x', secret: '0123456789abcdef' } };
    expect(() => parseAlertSettings(body, { allowPrivateUrls: false })).toThrow(expect.objectContaining({ errors: [{ field: 'webhook.url', message: 'The webhook URL must not point to a private or loopback address' }] }));
    expect(parseAlertSettings(body, { allowPrivateUrls: true }).webhook.url).toBe('http://127.0.0.1:9/x');
  });
});

describe('AlertRateLimit', () => {
  it('lets `limit` messages through per key and window, then refuses until the window moves on', () => {
    const r = new AlertRateLimit(2, 60_000);
    expect([r.take('u:telegram', 0), r.take('u:telegram', 1), r.take('u:telegram', 2), r.take('u:webhook', 3)]).toEqual([true, true, false, true]);
    expect(r.take('u:telegram', 60_001)).toBe(true);
  });
});

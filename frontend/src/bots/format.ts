/** Spec section 9: USDT amounts with at least 1 integer digit and exactly 2 decimals. */
export function usdt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumIntegerDigits: 1, minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Entry price on a futures card, in USD. */
export function usd(n: number | string | null | undefined): string {
  const v = Number(n);
  if (!Number.isFinite(v)) return '—';
  return v.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: v < 1 ? 6 : 2 });
}

/** Leverage as 'Nx' with 2 decimals (sections 2 and 9). */
export function leverageText(n: number | null | undefined): string | null {
  return n !== null && n !== undefined && Number.isFinite(n) && n > 0 ? `${n.toFixed(2)}x` : null;
}

/** A price that fits the entry price field (at most 10 characters). */
export function priceForField(p: number): string {
  for (let d = 8; d >= 0; d--) {
    const s = String(Number(p.toFixed(d)));
    if (s.length <= 10) return s;
  }
  return String(Math.round(p)).slice(0, 10);
}

export function plain(n: number | string | null | undefined): string {
  const v = Number(n);
  return Number.isFinite(v) ? String(v) : '—';
}

/**
 * A number for the card's stats: thousands grouped and no more decimals than the size needs
 * (2 from 1,000 up, 4 from 1 up, 6 significant digits below 1), so stats never wrap.
 */
export function compact(n: number | string | null | undefined): string {
  const v = Number(n);
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1000) return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  if (a >= 1) return v.toLocaleString('en-US', { maximumFractionDigits: 4 });
  if (a === 0) return '0';
  return v.toLocaleString('en-US', { maximumSignificantDigits: 6 });
}

/** Take profit is a percentage above the average entry price. */
export function percent(n: number | string | null | undefined): string {
  const v = Number(n);
  return Number.isFinite(v) ? `${v.toLocaleString('en-US', { maximumFractionDigits: 4 })}%` : '—';
}

/** The take-profit price of a position bought at `entry`: entry × (1 + takeProfit/100); short (issue 32), sold at `entry`: entry × (1 − takeProfit/100). */
export function takeProfitPrice(entry: number | string, takeProfit: number | string, direction: 'long' | 'short' = 'long'): number | null {
  const e = Number(entry);
  const tp = Number(takeProfit);
  if (!Number.isFinite(e) || !Number.isFinite(tp) || e <= 0 || tp <= 0) return null;
  return Number((e * (1 + ((direction === 'short' ? -1 : 1) * tp) / 100)).toPrecision(12));
}

/** A USDT amount with its sign: +1.20, −0.35, 0.00. */
export function signedUsdt(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  const s = usdt(Math.abs(n));
  return n > 0.004 ? `+${s}` : n < -0.004 ? `−${s}` : usdt(0);
}

/** A runtime in words: 45s, 12m 5s, 3h 20m, 2d 4h. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** A price in a table: 2 decimals from 1 up (94,206.20), the significant digits below 1. */
export function price(n: number | string | null | undefined): string {
  const v = Number(n);
  if (!Number.isFinite(v)) return '—';
  return Math.abs(v) >= 1 ? usdt(v) : compact(v);
}

/** A stopped bot's orders still on the exchange, no longer managed (issue 29, Found 6); null when none. */
export function ordersLeftOpenText(bot: { ordersleftopen?: number; exchange: string }, stopped: boolean): string | null {
  const n = bot.ordersleftopen ?? 0;
  if (!stopped || !(n > 0)) return null;
  return n === 1
    ? `1 order of this bot is still open on ${bot.exchange} and no longer managed.`
    : `${n} orders of this bot are still open on ${bot.exchange} and no longer managed.`;
}

/** A run's length: under a second says so (a bare "0s" reads as "never ran"). */
export function runLength(ms: number): string {
  return ms < 1000 ? 'under 1s' : duration(ms / 1000);
}

/**
 * The Runtime figure of a bot's page (issue 29, finding 9): the run going on, counted on by `sinceReadMs`
 * (the time since the summary was read); a stopped bot's last run, said to be the last; "—" before the
 * first start. The hint gives the total when the bot ran more than once.
 */
export function runtimeFigure(
  s: { running: boolean; runtimeSeconds: number; lastRun?: { startedAt: number; endedAt: number | null; ms: number } | null; runs?: number } | undefined,
  sinceReadMs: number,
): { value: string; hint?: string } {
  if (!s) return { value: '—' };
  const extra = s.running ? Math.max(0, sinceReadMs) : 0;
  if (s.lastRun === undefined) return { value: duration(s.runtimeSeconds + extra / 1000) }; // a server without lastRun
  if (s.lastRun === null) return { value: '—', hint: 'Not started yet' };
  const runs = s.runs ?? 1;
  const total = runs > 1 ? `${duration(s.runtimeSeconds + extra / 1000)} over ${runs} runs` : null;
  if (s.lastRun.endedAt === null) return { value: runLength(s.lastRun.ms + extra), hint: total ? `This run; ${total}` : 'Since the bot started' };
  const when = `Ran ${new Date(s.lastRun.startedAt).toLocaleString()} – ${new Date(s.lastRun.endedAt).toLocaleTimeString()}`;
  return { value: `${runLength(s.lastRun.ms)} (last run)`, hint: total ? `${when}; ${total}` : when };
}

/**
 * Issue 39: what the bot page says while the venue's rate limit pauses every call of the server to it (a 429,
 * or a 418 ban of the server's address): the bot waits and resumes by itself at the time given.
 */
export function rateLimitPauseText(bot: { ratelimiteduntil?: number; ratelimitstatus?: number; exchange: string }, now = Date.now()): string | null {
  if (bot.ratelimiteduntil === undefined || bot.ratelimiteduntil <= now) return null;
  const until = new Date(bot.ratelimiteduntil).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const why = bot.ratelimitstatus === 418 ? `${bot.exchange} banned this server's address for too many requests` : `${bot.exchange} refused this server's requests for too much weight`;
  return `Paused by the venue's rate limit: ${why}. The bot places and checks nothing until ${until}, then resumes by itself.`;
}

/**
 * Issue 39: what the bot page says while the venue's live updates for the bot's account are down: the
 * bot keeps trading, learning of its fills by polling until the stream is back.
 */
export function streamFallbackText(bot: { streamdownsince?: number; streamdownreason?: string; streampollms?: number; exchange: string }): string | null {
  if (bot.streamdownsince === undefined) return null;
  const since = new Date(bot.streamdownsince).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const every = bot.streampollms !== undefined ? ` every ${bot.streampollms >= 1000 ? `${Math.round(bot.streampollms / 100) / 10} s` : `${bot.streampollms} ms`}` : '';
  const why = bot.streamdownreason ? ` (${bot.streamdownreason})` : '';
  return `Live updates from ${bot.exchange} are down since ${since}${why}. The bot keeps trading and checks its fills${every} until they are back.`;
}

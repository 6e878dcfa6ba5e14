import { askForPassword, askForTotp } from './totpPrompt';

/**
 * The one place that talks HTTP: same-origin fetch with the session cookie, the CSRF double-submit
 * header, and error bodies normalised to {status, message, errors}.
 */
export interface FieldError {
  field: string;
  message: string;
}
export interface ApiError {
  status: number;
  message: string;
  errors?: FieldError[];
  retryAfter?: number;
}
export interface RequestArgs {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  params?: Record<string, string | number | boolean | undefined | null>;
  /** send X-CSRF-Token even on a GET (startBot, stopBot) */
  csrf?: boolean;
  /** extra request headers (X-TOTP: a fresh two-factor code) */
  headers?: Record<string, string>;
}
export type Result<T> = { data: T; error?: undefined } | { error: ApiError; data?: undefined };

let cachedToken: string | null = null;

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function resetCsrf(): void {
  cachedToken = null;
}

export async function csrfToken(force = false): Promise<string | null> {
  if (!force) {
    const fromCookie = readCookie('csrf_token');
    if (fromCookie) return fromCookie;
    if (cachedToken) return cachedToken;
  }
  try {
    const res = await fetch('/api/auth/csrf', { credentials: 'include', headers: { Accept: 'application/json' } });
    if (!res.ok) return null;
    const body = await res.json();
    cachedToken = typeof body?.token === 'string' ? body.token : null;
    return readCookie('csrf_token') ?? cachedToken;
  } catch {
    return null;
  }
}

export function buildUrl(url: string, params?: RequestArgs['params']): string {
  if (!params) return url;
  const q = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return q ? `${url}${url.includes('?') ? '&' : '?'}${q}` : url;
}

function retryAfterSeconds(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.max(0, Math.ceil(n));
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : undefined;
}

export function tooManyMessage(seconds?: number): string {
  return seconds !== undefined
    ? `Too many attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
    : 'Too many attempts. Please wait a moment and try again.';
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T = unknown>(args: RequestArgs, retried = false): Promise<Result<T>> {
  const method = args.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...(args.headers ?? {}) };
  const needsCsrf = method !== 'GET' || args.csrf === true;
  if (needsCsrf) {
    const token = await csrfToken(retried);
    if (token) headers['X-CSRF-Token'] = token;
  }
  let body: string | undefined;
  if (args.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(args.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(args.url, args.params), { method, headers, body, credentials: 'include' });
  } catch {
    return { error: { status: 0, message: 'The server could not be reached. Check your connection and try again.' } };
  }
  const data = await parseBody(res).catch(() => null);
  if (res.ok) return { data: data as T };
  const obj = (data && typeof data === 'object' ? data : {}) as { message?: unknown; errors?: unknown };
  let message = Array.isArray(obj.message)
    ? obj.message.join(', ')
    : typeof obj.message === 'string'
      ? obj.message
      : typeof data === 'string' && data.length < 200
        ? data
        : res.statusText || `Request failed (${res.status})`;
  if (needsCsrf && res.status === 403 && !retried && /csrf/i.test(message)) {
    resetCsrf();
    return request<T>(args, true);
  }
  const error: ApiError = { status: res.status, message };
  if (Array.isArray(obj.errors)) error.errors = obj.errors as FieldError[];
  // this action needs the current password (issue 38: a session thief has none): ask, and send it again with it
  if (res.status === 403 && error.errors?.some((f) => f.field === 'currentPassword')) {
    const password = await askForPassword(message);
    if (password) return request<T>({ ...args, headers: { ...(args.headers ?? {}), 'X-Current-Password': password } }, retried);
  }
  // two-factor sign-in is on and this action needs a fresh code (issue 30): ask, and send it again with it
  if (res.status === 403 && error.errors?.some((f) => f.field === 'totp')) {
    const code = await askForTotp(message);
    if (code) return request<T>({ ...args, headers: { ...(args.headers ?? {}), 'X-TOTP': code } }, retried);
  }
  if (res.status === 429) {
    error.retryAfter = retryAfterSeconds(res.headers?.get?.('Retry-After'));
    message = tooManyMessage(error.retryAfter);
    error.message = message;
  }
  return { error };
}

/** A readable one-line reason for a failed call: the server's message, then its field messages. */
export function describeError(error: unknown): string {
  const e = error as Partial<ApiError> | undefined;
  if (!e) return '';
  const fields = (e.errors ?? []).map((f) => f.message).filter(Boolean);
  const parts = [e.message, ...fields].filter((s, i, all) => s && all.indexOf(s) === i);
  return parts.join(' · ');
}

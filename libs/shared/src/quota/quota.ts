import { AppError } from '../errors';

/** The per-user limits (QUOTA_* settings). */
export type QuotaKind = 'bots' | 'keys' | 'sessions' | 'sockets' | 'uploads' | 'uploadBytes';

const quotaLabel: Record<QuotaKind, string> = {
  bots: 'bots',
  keys: 'API keys',
  sessions: 'signed-in sessions',
  sockets: 'open live connections',
  uploads: 'uploaded candle files',
  uploadBytes: 'bytes of uploaded candles',
};

/** What the user can do about a limit reached, said in its 409. */
export const QUOTA_ADVICE: Record<QuotaKind, string> = {
  bots: 'Delete a bot you no longer need before creating another.',
  keys: 'Delete an API key you no longer use before adding another.',
  sessions: 'Sign out on another device, or wait until an old session expires.',
  sockets: 'Close another tab.',
  uploads: 'Delete an upload first.',
  uploadBytes: 'Delete an upload first.',
};

/**
 * A per-user limit (QUOTA_* settings) is reached: 409, with a message that names the limit and what
 * to do. Nothing was written.
 */
export class QuotaExceededError extends AppError {
  readonly status = 409;
  constructor(readonly quota: QuotaKind, limit: number, advice: string = QUOTA_ADVICE[quota]) {
    super(`Limit reached: at most ${limit} ${quotaLabel[quota]} per user. ${advice}`);
    this.name = 'QuotaExceededError';
  }
}

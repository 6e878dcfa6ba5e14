import { AppError } from '../errors';

/**
 * A per-user limit (QUOTA_* settings) is reached: 409, with a message that names the limit and what
 * to do. Nothing was written.
 */
export class QuotaExceededError extends AppError {
  readonly status = 409;
  constructor(readonly quota: 'bots' | 'keys' | 'sessions' | 'sockets' | 'uploads' | 'uploadBytes', limit: number, advice: string) {
    super(`Limit reached: at most ${limit} ${quotaLabel[quota]} per user. ${advice}`);
    this.name = 'QuotaExceededError';
  }
}

const quotaLabel: Record<QuotaExceededError['quota'], string> = {
  bots: 'bots',
  keys: 'API keys',
  sessions: 'signed-in sessions',
  sockets: 'open live connections',
  uploads: 'uploaded candle files',
  uploadBytes: 'bytes of uploaded candles',
};

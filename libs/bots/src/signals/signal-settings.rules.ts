import { z } from 'zod';
import { ValidationError } from '@gridrocket/shared';

/** The body of enabling a bot's signal webhook or rotating its secret (both optional). */
export const signalSettingsSchema = z.object({
  /**
   * Also take the secret inside a JSON message (TradingView's alerts cannot sign nor set headers).
   * Off: only requests signed with X-Signature are taken.
   */
  allowBodySecret: z.boolean({ invalid_type_error: 'allowBodySecret must be true or false' }).optional(),
});

export function parseSignalSettings(body: unknown): { allowBodySecret: boolean | undefined } {
  const input = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body as object).length === 0) ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw new ValidationError([{ field: 'body', message: 'Send the settings as a JSON object' }]);
  const r = signalSettingsSchema.safeParse(input);
  if (!r.success) throw new ValidationError(r.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  return { allowBodySecret: r.data.allowBodySecret };
}

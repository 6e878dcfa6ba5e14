import { z } from 'zod';
import { ValidationError } from '@gridrocket/shared';
import { SIGNAL_HELD_POSITION_CHOICES, SignalHeldPosition } from './signal.events';

export const HELD_POSITION_MESSAGE = `heldPosition must be one of: ${SIGNAL_HELD_POSITION_CHOICES.join(', ')} (refuse the start, start with the position, or sell it first)`;
const heldPosition = z.enum(SIGNAL_HELD_POSITION_CHOICES, { errorMap: () => ({ message: HELD_POSITION_MESSAGE }) });

/** The body of enabling a bot's signal webhook or rotating its secret (both optional). */
export const signalSettingsSchema = z.object({
  /**
   * Also take the secret inside a JSON message (TradingView's alerts cannot sign nor set headers).
   * Off: only requests signed with X-Signature are taken.
   */
  allowBodySecret: z.boolean({ invalid_type_error: 'allowBodySecret must be true or false' }).optional(),
  /** Issue 40: what a start signal does with a held position (refuse, resume, sell); kept unless given. */
  heldPosition: heldPosition.optional(),
});

/** The body of changing only the held-position choice (PATCH /api/bots/{id}/signals): `heldPosition` required. */
export const heldPositionSchema = z.object({ heldPosition });

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const input = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body as object).length === 0) ? {} : body;
  if (typeof input !== 'object' || Array.isArray(input)) throw new ValidationError([{ field: 'body', message: 'Send the settings as a JSON object' }]);
  const r = schema.safeParse(input);
  if (!r.success) throw new ValidationError(r.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  return r.data;
}

export function parseSignalSettings(body: unknown): { allowBodySecret: boolean | undefined; heldPosition: SignalHeldPosition | undefined } {
  const d = parsed(signalSettingsSchema, body);
  return { allowBodySecret: d.allowBodySecret, heldPosition: d.heldPosition };
}

export function parseHeldPosition(body: unknown): SignalHeldPosition {
  return parsed(heldPositionSchema, body).heldPosition;
}

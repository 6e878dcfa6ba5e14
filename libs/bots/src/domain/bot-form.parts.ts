/**
 * The parts of the bot forms that every style's create body shares (issue 42): the `userId` and
 * `confirmAboveMarket` fields, zod's issues as field messages, numbers as a trader reads them. Their own
 * file because bot.rules.ts asks the style registry (styles/registry.ts) and the styles' rules (styles/<style>/)
 * use these: the styles import this file, never bot.rules.ts, so the import graph has no cycle. Pure.
 */
import { z } from 'zod';
import type { FieldError } from '@gridrocket/shared';

export const userId = z.string({ invalid_type_error: 'userId must be text' }).max(128, 'userId is too long').optional();

/**
 * Issue 29 finding 3: the trader confirmed an entry price more than ABOVE_MARKET_TOLERANCE above the
 * market (bot-market.rules.ts aboveMarket). Not stored: it answers this request only.
 */
export const confirmAboveMarket = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' || v === '' || v === null ? undefined : v),
  z.boolean({ invalid_type_error: 'confirmAboveMarket must be true or false' }).optional(),
);

export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
}

/** A number as a trader reads it: no binary noise (0.1 % maker, not 0.09999999999999999). */
export const shown = (x: number) => String(Number(x.toPrecision(12)));

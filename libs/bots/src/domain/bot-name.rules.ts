/**
 * A bot's name (issue 40: three BTCUSDT bots must be told apart, as on the hosted grids): optional,
 * trimmed, at most BOT_NAME_MAX characters, no control characters. Shown on the card, the bot page, the
 * lists, the history and the alerts (libs/alerts alert-mapping.ts cleanBotName reads it from the bot's
 * config). Pure, shared by the server's parse (bot.rules.ts) and the form.
 */
import { z } from 'zod';
import { documentedAs } from '@gridrocket/shared';

/** The longest name: what the alerts show whole (alert-mapping.ts cleanBotName keeps 60) and the template names' bound. */
export const BOT_NAME_MAX = 60;

/**
 * Characters a name may not hold: control characters (Unicode Cc: tabs, line breaks, escapes), the line
 * and paragraph separators, and the direction overrides and isolates that make a text read otherwise
 * than it is stored (CVE-2021-42574, "Trojan Source").
 */
export const BOT_NAME_FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export const BOT_NAME_CONTROL_MESSAGE = 'name must not contain control characters (tabs, line breaks) or direction overrides';
export const BOT_NAME_LENGTH_MESSAGE = `name must be at most ${BOT_NAME_MAX} characters`;

/** The name as stored: trimmed (an empty one is no name). */
export function trimmedName(name: string): string {
  return name.trim();
}

/** Why a name is refused (the form's and the server's one message), or null. */
export function botNameProblem(name: string): string | null {
  const n = trimmedName(name);
  if (BOT_NAME_FORBIDDEN.test(n)) return BOT_NAME_CONTROL_MESSAGE;
  if (n.length > BOT_NAME_MAX) return BOT_NAME_LENGTH_MESSAGE;
  return null;
}

/**
 * The body's `name`: text, trimmed, checked. Absent: no name on a create, no change on an edit; '' (or
 * blanks) or null: no name, and an edit that sends it removes the name (as the optional settings).
 */
export const botNameField = documentedAs(
  z.preprocess(
    (v) => (v === null ? undefined : v),
    z
      .string({ invalid_type_error: 'name must be text' })
      .transform(trimmedName)
      .superRefine((s, ctx) => {
        const problem = botNameProblem(s);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      })
      .optional(),
  ),
  {
    type: 'string',
    maxLength: BOT_NAME_MAX,
    description: `issue 40: the bot's name, optional: trimmed, at most ${BOT_NAME_MAX} characters, no control characters or direction overrides; on an edit '' or null removes it and an absent name keeps it`,
  },
);

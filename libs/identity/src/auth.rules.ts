import { z } from 'zod';
import { ValidationError } from '@gridrocket/shared';
import { COMMON_PASSWORD, isCommonPassword } from './passwords/common-passwords';

/** Spec section 5: email 5 to 50 characters, password 8 to 30, with the spec's messages. */
export const emailRule = z
  .string({ required_error: 'Email is required', invalid_type_error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .min(5, 'Email must be at least 5 characters')
  .max(50, 'Email must be at most 50 characters')
  .email('Email must be a valid email address')
  .transform((s) => s.toLowerCase());

export const passwordRule = z
  .string({ required_error: 'Password is required', invalid_type_error: 'Password is required' })
  .min(1, 'Password is required')
  .min(8, 'Password must be at least 8 characters')
  .max(30, 'Password must be at most 30 characters');

/**
 * A password being chosen (register, reset): the spec's lengths and messages, and not one of the most
 * common passwords (issue 30). Sign-in keeps `passwordRule` alone: an old common password still signs in.
 */
export const newPasswordRule = passwordRule.refine((p) => !isCommonPassword(p), COMMON_PASSWORD);

export const credentialsSchema = z.object({ email: emailRule, password: passwordRule });
export const registerSchema = z.object({ email: emailRule, password: newPasswordRule });

export const tokenRule = z
  .string({ required_error: 'Token is required', invalid_type_error: 'Token is required' })
  .trim()
  .min(1, 'Token is required')
  .max(200, 'Token must be at most 200 characters');

export const forgotPasswordSchema = z.object({ email: emailRule });
export const verifyEmailSchema = z.object({ token: tokenRule });
export const resetPasswordSchema = z.object({ token: tokenRule, password: newPasswordRule });

const optionalText = (label: string, max: number) =>
  z
    .string({ invalid_type_error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((s) => s ?? '');

/** Spec section 7: POST /user {userId, firstname, lastname, username, picurl}. */
export const profileSchema = z.object({
  userId: z.string({ invalid_type_error: 'userId must be text' }).max(100, 'userId must be at most 100 characters').optional(),
  firstname: optionalText('First name', 50),
  lastname: optionalText('Last name', 50),
  username: optionalText('Username', 100),
  picurl: z
    .string({ invalid_type_error: 'Picture URL must be text' })
    .trim()
    .max(2048, 'Picture URL must be at most 2048 characters')
    .refine((s) => s === '' || isHttpUrl(s), 'Picture URL must be an http or https address')
    .nullish(),
});

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** displayName is the username, or else "firstname lastname" (the spec splits it back on the first space). */
export function displayNameOf(p: { firstname: string; lastname: string; username: string }): string {
  return p.username || [p.firstname, p.lastname].filter(Boolean).join(' ');
}

/** The spec's split of a display name into first and last name: on the first space. */
export function splitDisplayName(displayName: string): { firstname: string; lastname: string } {
  const i = displayName.indexOf(' ');
  return i < 0 ? { firstname: displayName, lastname: '' } : { firstname: displayName.slice(0, i), lastname: displayName.slice(i + 1) };
}

export function parseOrThrow<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    throw new ValidationError(r.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  }
  return r.data;
}

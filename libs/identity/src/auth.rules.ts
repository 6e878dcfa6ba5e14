import { z } from 'zod';
import { ValidationError } from '@gridrocket/shared';

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

export const credentialsSchema = z.object({ email: emailRule, password: passwordRule });

export function parseOrThrow<T extends z.ZodTypeAny>(schema: T, input: unknown): z.output<T> {
  const r = schema.safeParse(input ?? {});
  if (!r.success) {
    throw new ValidationError(r.error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message })));
  }
  return r.data;
}

import { z } from 'zod';
import { EXCHANGES, FieldError, ValidationError } from '@gridrocket/shared';
import type { ExchangeName } from '@gridrocket/shared';
import { accountOf } from '@gridrocket/exchanges/venues';

/**
 * The API key form (spec section 5), as POST /api/api-credentials receives it:
 * `{access: {exchange, apiKey, keySecret, passPhrase, userId}}`. `apiKey` is the public key
 * (shown back as `apikeyid`), `keySecret` the secret, `passPhrase` Kucoin's passphrase ('' when none).
 *
 * Error messages never contain the submitted values.
 */
export const CREDENTIAL_MESSAGES = {
  exchangeRequired: 'Exchange is required',
  exchangeMin: 'Exchange must be at least 2 characters',
  exchangeMax: 'Exchange must be at most 20 characters',
  exchangeOneOf: 'Exchange must be Binance or Kucoin',
  apiKeyRequired: 'API Key is required',
  apiKeyMin: 'API key must be at least 5 characters',
  apiKeyMax: 'API key must be at most 100 characters',
  apiKeyChars: 'API key must contain only printable characters without spaces',
  secretRequired: 'Secret Key is required',
  secretMin: 'Secret Key number must be at least 12 characters',
  secretMax: 'Secret Key must be at most 100 characters',
  secretChars: 'Secret Key must contain only printable characters without spaces',
  passphraseMin: 'Passphrase must be at least 4 characters',
  passphraseMax: 'Passphrase must be at most 40 characters',
  passphraseChars: 'Passphrase must contain only printable characters',
} as const;

const M = CREDENTIAL_MESSAGES;
/** Printable ASCII without spaces: what Binance and Kucoin issue; no control characters reach a header. */
const TOKEN = /^[\x21-\x7E]+$/;
const PRINTABLE = /^[\x20-\x7E]+$/;

const requiredText = (required: string, typeMessage: string) =>
  z.preprocess((v) => (v === null ? undefined : v), z.string({ required_error: required, invalid_type_error: typeMessage }).trim().min(1, required));

const exchange = requiredText(M.exchangeRequired, 'Exchange must be text')
  .pipe(z.string().min(2, M.exchangeMin).max(20, M.exchangeMax))
  .transform((s, ctx): ExchangeName => {
    const found = EXCHANGES.find((e) => e.toLowerCase() === s.toLowerCase());
    if (!found) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: M.exchangeOneOf });
      return z.NEVER;
    }
    return found;
  });

const apiKey = requiredText(M.apiKeyRequired, 'API key must be text').pipe(
  z.string().min(5, M.apiKeyMin).max(100, M.apiKeyMax).regex(TOKEN, M.apiKeyChars),
);

const keySecret = requiredText(M.secretRequired, 'Secret Key must be text').pipe(
  z.string().min(12, M.secretMin).max(100, M.secretMax).regex(TOKEN, M.secretChars),
);

const passPhrase = z.preprocess(
  (v) => (v === undefined || v === null ? '' : v),
  z
    .string({ invalid_type_error: 'Passphrase must be text' })
    .trim()
    .refine((s) => s === '' || s.length >= 4, M.passphraseMin)
    .refine((s) => s.length <= 40, M.passphraseMax)
    .refine((s) => s === '' || PRINTABLE.test(s), M.passphraseChars),
);

const userId = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z.string({ invalid_type_error: 'userId must be text' }).max(128, 'userId is too long').optional(),
);

export const addCredentialSchema = z.object({ exchange, apiKey, keySecret, passPhrase, userId });

export interface AddCredentialInput {
  exchange: ExchangeName;
  apiKeyId: string;
  secret: string;
  /** null when none was given (and always for Binance, which has no passphrase). */
  passphrase: string | null;
  userId?: string;
}

/** Accepts the spec's `{access: {...}}` body (and, for convenience, the same fields at the top level). */
export function parseAddCredential(body: unknown): AddCredentialInput {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ field: 'access', message: 'The body must be a JSON object {access: {exchange, apiKey, keySecret, passPhrase, userId}}' }]);
  }
  const b = body as Record<string, unknown>;
  const access = b.access === undefined ? b : b.access;
  if (access === null || typeof access !== 'object' || Array.isArray(access)) {
    throw new ValidationError([{ field: 'access', message: 'access must be an object {exchange, apiKey, keySecret, passPhrase, userId}' }]);
  }
  const result = addCredentialSchema.safeParse(access);
  if (!result.success) throw new ValidationError(toFieldErrors(result.error));
  const v = result.data;
  return {
    exchange: v.exchange,
    apiKeyId: v.apiKey,
    secret: v.keySecret,
    passphrase: accountOf(v.exchange).passphrase && v.passPhrase !== '' ? v.passPhrase : null,
    userId: v.userId,
  };
}

function toFieldErrors(error: z.ZodError): FieldError[] {
  // One message per field (the first), in the form's order.
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const i of error.issues) {
    const field = String(i.path[0] ?? 'access');
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: i.message });
  }
  return out;
}

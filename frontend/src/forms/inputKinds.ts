/**
 * The input attributes the account forms repeat: an email address (at most 50 characters) and a password
 * (at most 30), the one being typed for a login or a new one being chosen. Spread into a <Field>.
 */
export const EMAIL_INPUT = { label: 'Email', type: 'email', autoComplete: 'email', maxLength: 50 } as const;
export const CURRENT_PASSWORD_INPUT = { type: 'password', autoComplete: 'current-password', maxLength: 30 } as const;
export const NEW_PASSWORD_INPUT = { type: 'password', autoComplete: 'new-password', maxLength: 30 } as const;
/** What a new password's first field says under it. */
export const NEW_PASSWORD_HINT = '8 to 30 characters';

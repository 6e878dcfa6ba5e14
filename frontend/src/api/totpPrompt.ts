/**
 * Asking the user to confirm a sensitive call. A call answered 403 with a `totp` field error (issue 30:
 * add or delete a key, change the alert channels, with two-factor sign-in on) is asked again with a fresh
 * code in `X-TOTP`; one answered 403 with a `currentPassword` field error (issue 38: set up or turn off
 * two-factor sign-in, make an access token, change the alert channels, more than a few minutes after
 * signing in) is asked again with the password in `X-Current-Password`. The prompt component registers
 * itself here (no prompt mounted: nothing is asked, the error stands).
 */
export type PromptKind = 'totp' | 'password';
type Asker = (message: string, kind: PromptKind) => Promise<string | null>;

let asker: Asker | null = null;

export function setTotpAsker(a: Asker | null): void {
  asker = a;
}

export function askForTotp(message: string): Promise<string | null> {
  return asker ? asker(message, 'totp') : Promise.resolve(null);
}

export function askForPassword(message: string): Promise<string | null> {
  return asker ? asker(message, 'password') : Promise.resolve(null);
}

/**
 * Asking the user for a fresh two-factor code (issue 30). A sensitive call (add or delete a key, change
 * the alert channels) answered 403 with a `totp` field error is asked again with the code in `X-TOTP`;
 * the prompt component registers itself here (no prompt mounted: nothing is asked, the error stands).
 */
type Asker = (message: string) => Promise<string | null>;

let asker: Asker | null = null;

export function setTotpAsker(a: Asker | null): void {
  asker = a;
}

export function askForTotp(message: string): Promise<string | null> {
  return asker ? asker(message) : Promise.resolve(null);
}

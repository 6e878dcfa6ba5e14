import { base32Decode, hotp, totpStep } from '@gridrocket/identity';

/**
 * One account's authenticator app in tests (issue 30): the next TOTP code of its secret (the setup's
 * base32 key) that it may use, never a time step it used already (the server refuses a replay); waits
 * (at most one 30 s step) when the next usable step is not yet within the window.
 */
export class Authenticator {
  private last = -1;
  constructor(readonly secret: string) {}

  async code(): Promise<string> {
    for (;;) {
      const now = totpStep(Date.now());
      const target = Math.max(this.last + 1, now);
      if (target <= now + 1) {
        this.last = target;
        return hotp(base32Decode(this.secret)!, target);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** A code of the current step that this account has used already (a replay). */
  usedCode(): string {
    return hotp(base32Decode(this.secret)!, this.last);
  }

  /** A code that is not the one for any step in the window. */
  wrongCode(): string {
    const s = base32Decode(this.secret)!;
    const now = totpStep(Date.now());
    const valid = new Set([now - 2, now - 1, now, now + 1, now + 2].map((t) => hotp(s, t)));
    for (let n = 0; ; n++) {
      const c = String(n).padStart(6, '0');
      if (!valid.has(c)) return c;
    }
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';

/** The form in which addresses are compared: Unicode NFKC, trimmed, lower case. */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/**
 * Auditors are the configured emails (AUDITOR_EMAILS): they read any bot's history and change nothing.
 * The role needs the address to be verified (someone registering an auditor's address without owning
 * the mailbox gets nothing), an exact match after normalisation, and it is decided again on every
 * request from the session's current user.
 */
@Injectable()
export class AuditorPolicy {
  private readonly emails: Set<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.emails = new Set((config.auditorEmails ?? []).map(normalizeEmail));
  }

  get enabled(): boolean {
    return this.emails.size > 0;
  }

  /** Whether the address is an auditor's, verified or not (read-only restrictions apply either way). */
  isAuditorAddress(email: string | null | undefined): boolean {
    return !!email && this.emails.has(normalizeEmail(email));
  }

  /** Whether this user holds the auditor role now: an auditor's address, verified. */
  isAuditor(user: { email: string | null | undefined; emailVerified: boolean } | null | undefined): boolean {
    return !!user && user.emailVerified === true && this.isAuditorAddress(user.email);
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';

/** Auditors are the configured emails (AUDITOR_EMAILS): they read any bot's history and change nothing. */
@Injectable()
export class AuditorPolicy {
  private readonly emails: Set<string>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.emails = new Set((config.auditorEmails ?? []).map((e) => e.trim().toLowerCase()));
  }

  get enabled(): boolean {
    return this.emails.size > 0;
  }

  isAuditor(email: string | null | undefined): boolean {
    return !!email && this.emails.has(email.trim().toLowerCase());
  }
}

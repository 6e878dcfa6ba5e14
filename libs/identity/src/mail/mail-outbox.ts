import { Logger } from '@nestjs/common';
import { EventStore, RecordedEvent, streamHasEvents } from '@gridrocket/event-store';
import { ReadStore, RunningReactor, startOutboxReactor } from '@gridrocket/read-store';
import { correlated, systemContext } from '@gridrocket/shared';
import { executeCommand, loadState } from '@gridrocket/shared/runtime';
import { MailKind, MailRecordedData, MailStatus, mailDeliveryDecider, mailDeliveryStream } from '../domain/mail-delivery.decider';
import { userDecider } from '../domain/user.decider';
import type { PasswordResetReason } from '../domain/user.events';
import type { LinkTokens } from '../link-tokens';
import type { Mailer, MailMessage } from './mail.port';
import { registrationAttemptMessage, resetPasswordMessage, securityNoticeMessage, verifyEmailMessage } from './mail.templates';
import { smtpFailure } from './smtp-failure';
import { mailRetryDelay, stableMessageId } from './mail-ids';

export const MAIL_OUTBOX_NAME = 'mail-outbox';
const MAX_CONCURRENT_SENDS = 4;
/** The events that tell the owner of a change to the account's two-factor sign-in (issue 38). */
export const SECURITY_NOTICE_EVENT_TYPES = ['TwoFactorEnabled', 'TwoFactorDisabled', 'TwoFactorRecoveryCodeUsed', 'TwoFactorCodeStepLocked'];
/** The events that cause a mail. */
export const MAIL_CAUSE_EVENT_TYPES = ['EmailVerificationRequested', 'PasswordResetRequested', ...SECURITY_NOTICE_EVENT_TYPES];

export interface MailOutboxDeps {
  events: EventStore;
  reads: ReadStore;
  mailer: Mailer;
  tokens: LinkTokens;
  publicUrl: string;
  retryBaseMs: number;
  retryMaxMs: number;
  now?: () => number;
}

/** Told of each mail's end and of each failed try (for /metrics). */
export interface MailOutboxObserver {
  outcome(kind: MailKind, status: MailStatus): void;
  retry(kind: MailKind): void;
}

/** A mail the outbox knows about and has not recorded yet. */
interface Pending {
  kind: MailKind;
  since: number;
  attempts: number;
  lastError: string | null;
  lastCode: number | null;
}

/**
 * off: not running in this process; idle: nothing waiting; sending: mails in hand, no failure;
 * retrying: the mail server failed the last try of a waiting mail (4yz or no connection): tried again with back-off.
 */
export type MailOutboxState = 'off' | 'idle' | 'sending' | 'retrying';

export interface MailOutboxStatus {
  state: MailOutboxState;
  /** Mails asked for and not yet taken by the server (nor failed for good). */
  pending: number;
  /** Age of the oldest of them, in seconds (0 when none). */
  oldestPendingSeconds: number;
  /** Since this process started. */
  sent: number;
  failed: number;
  skipped: number;
  /** The last transient failure of a waiting mail, in words without secrets (null when none is waiting). */
  lastError: string | null;
}

/** The Message-ID of the mail caused by `causeId`: the same on every try and after a restart (RFC 5322 §3.6.4). */
export function outboxMessageId(causeId: string, publicUrl: string): string {
  return stableMessageId('mail', causeId, publicUrl);
}

/** Which mail an event asks for (null: none). */
export function mailKindOf(event: { type: string; data: unknown }): MailKind | null {
  if (event.type === 'EmailVerificationRequested') return 'verify-email';
  if (SECURITY_NOTICE_EVENT_TYPES.includes(event.type)) return 'security-notice';
  if (event.type === 'PasswordResetRequested') {
    const reason = (event.data as { reason?: PasswordResetReason }).reason;
    return reason === 'registration-attempt' ? 'registration-attempt' : 'reset-password';
  }
  return null;
}

/**
 * The mail outbox (issue 31): every identity mail (verification, password reset, the notice that someone
 * tried to register with an address) is sent by this checkpointed reactor from the event that asked for
 * it, never from the request. The event is the durable "outbox row": it is written before the request
 * answers, and the reactor's checkpoint moves past it only once its mail is recorded.
 *
 * - Retries: a 4yz reply or a failed/closed/timed-out connection (RFC 5321 §4.2.1, §3.8) fails the event,
 *   which the reactor handles again after MAIL_RETRY_BASE_MS × 2^(n-1), at most MAIL_RETRY_MAX_MS apart, for
 *   as long as it takes: no attempt limit. A 5yz reply is final and recorded as `failed`.
 * - Exactly once: each mail ends as one `MailRecorded` event in `mail-delivery-<causing event id>` (written
 *   once: the decider records nothing a second time); a recorded mail is never sent again. The link's token
 *   is not stored anywhere: it is made again from the event's seed (link-tokens.ts).
 * - The narrow window: a crash (kill -9) after the server answered 250 and before `MailRecorded` is written
 *   sends that mail again after the restart. Both copies carry the same Message-ID (made from the causing
 *   event's id), so a mail system or client that de-duplicates by Message-ID shows it once.
 * - A mail whose link is dead before the server takes it (a newer link asked for, the link used, the
 *   address verified meanwhile, or expired) is recorded `skipped` instead of sent: a dead link helps nobody.
 */
export class MailOutbox {
  private readonly logger = new Logger('Mail');
  private reactor: RunningReactor | null = null;
  private readonly pending = new Map<string, Pending>();
  private counts = { sent: 0, failed: 0, skipped: 0 };
  /** At most this many mails go to the server at once (after an outage, everything waiting is due together). */
  private free = MAX_CONCURRENT_SENDS;
  private readonly waiting: (() => void)[] = [];
  private readonly observers: MailOutboxObserver[] = [];

  constructor(private readonly deps: MailOutboxDeps) {}

  async start(): Promise<void> {
    // A first start begins at the end: mails asked for before the outbox existed were sent by the request.
    // Each mail on its own: one the server keeps failing does not hold up the next of the same user.
    this.reactor = await startOutboxReactor(this.deps, MAIL_OUTBOX_NAME, {
      filter: { streamPrefixes: ['user-'], eventTypes: MAIL_CAUSE_EVENT_TYPES },
      handle: (event) => this.handle(event),
      retryDelay: mailRetryDelay(this.deps.retryBaseMs, this.deps.retryMaxMs),
      onError: (err, event) => this.logger.warn(correlated(`Mail for ${event.type} of ${event.streamId} not sent yet, will retry: ${err.message}`, event.metadata?.correlationId)),
    });
  }

  async stop(): Promise<void> {
    await this.reactor?.stop();
    this.reactor = null;
  }

  observe(observer: MailOutboxObserver): void {
    this.observers.push(observer);
  }

  get running(): boolean {
    return this.reactor !== null;
  }

  status(): MailOutboxStatus {
    const now = this.now();
    let oldest = now;
    let lastError: string | null = null;
    let retrying = false;
    for (const p of this.pending.values()) {
      oldest = Math.min(oldest, p.since);
      if (p.lastError) {
        retrying = true;
        lastError = p.lastError;
      }
    }
    const state: MailOutboxState = !this.reactor ? 'off' : retrying ? 'retrying' : this.pending.size ? 'sending' : 'idle';
    return { state, pending: this.pending.size, oldestPendingSeconds: Math.max(0, Math.round((now - oldest) / 1000)), ...this.counts, lastError };
  }

  /** One causing event: public for tests. Throws on a transient failure (the reactor tries again). */
  async handle(event: RecordedEvent): Promise<void> {
    const kind = mailKindOf(event);
    if (!kind) return;
    if (await this.recorded(event.id)) {
      this.pending.delete(event.id);
      return;
    }
    let p = this.pending.get(event.id);
    if (!p) {
      p = { kind, since: Date.parse(event.created) || this.now(), attempts: 0, lastError: null, lastCode: null };
      this.pending.set(event.id, p);
    }
    const uid = event.streamId.slice('user-'.length);
    if (kind === 'security-notice') return this.sendNotice(event, p, uid);
    const data = event.data as { tokenDigest: string; expiresAt: string; tokenSeed?: string };
    const user = (await loadState(this.deps.events, event.streamId, userDecider, { atLeast: event.revision }))?.state;
    const current = kind === 'verify-email' ? user?.pendingVerification : user?.pendingReset;
    let skip: string | null = null;
    if (!user?.email) skip = 'No such user';
    else if (!data.tokenSeed) skip = 'Asked for before the mail outbox: no link to make';
    else if (current?.tokenDigest !== data.tokenDigest) skip = 'The link was replaced or used before the mail went out';
    else if (Date.parse(data.expiresAt) <= this.now()) skip = 'The link expired before the mail server took it';
    if (skip) {
      await this.record(event, p, { status: 'skipped', code: null, messageId: null, reason: skip });
      return;
    }
    const token = this.deps.tokens.fromSeed(data.tokenSeed!);
    if (this.deps.tokens.digest(token) !== data.tokenDigest) {
      // A seed that does not make the stored digest (another master key): the link would not work.
      await this.record(event, p, { status: 'failed', code: null, messageId: null, reason: 'The link could not be made again (another master key?)' });
      return;
    }
    const messageId = outboxMessageId(event.id, this.deps.publicUrl);
    const message: MailMessage = { ...this.compose(kind as Exclude<MailKind, 'security-notice'>, user!.email!, token, Date.parse(data.expiresAt) - Date.parse(event.created)), messageId };
    await this.deliver(event, p, uid, kind, message);
  }

  /** Hands the mail to the server: recorded sent, or failed for good (5yz); a transient failure throws (retried). */
  private async deliver(event: RecordedEvent, p: Pending, uid: string, kind: MailKind, message: MailMessage): Promise<void> {
    const messageId = message.messageId ?? null;
    p.attempts++;
    try {
      await this.oneAtATime(() => this.deps.mailer.send(message, event.metadata?.correlationId));
    } catch (err) {
      const f = smtpFailure(err);
      if (!f.permanent) {
        p.lastError = f.error;
        p.lastCode = f.code;
        for (const o of this.observers) o.retry(kind);
        throw new Error(f.error);
      }
      this.logger.error(correlated(`Mail ${kind} to user ${uid} refused for good: ${f.error}`, event.metadata?.correlationId));
      await this.record(event, p, { status: 'failed', code: f.code, messageId, reason: f.error });
      return;
    }
    p.lastError = null;
    await this.record(event, p, { status: 'sent', code: this.deps.mailer.kind === 'smtp' ? 250 : null, messageId, reason: null });
  }

  /** A notice without a link token (issue 38): to the account's address, once, as every outbox mail. */
  private async sendNotice(event: RecordedEvent, p: Pending, uid: string): Promise<void> {
    const user = (await loadState(this.deps.events, event.streamId, userDecider, { atLeast: event.revision }))?.state;
    const message = user?.email ? securityNoticeMessage(user.email, `${this.deps.publicUrl}/security`, event as unknown as { type: string; data: Record<string, unknown> }) : null;
    if (!message) {
      await this.record(event, p, { status: 'skipped', code: null, messageId: null, reason: 'No such user' });
      return;
    }
    await this.deliver(event, p, uid, 'security-notice', { ...message, messageId: outboxMessageId(event.id, this.deps.publicUrl) });
  }

  private async oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }

  private compose(kind: Exclude<MailKind, 'security-notice'>, to: string, token: string, ttlMs: number): MailMessage {
    const base = this.deps.publicUrl;
    const hours = ttlMs / 3_600_000;
    switch (kind) {
      case 'verify-email':
        return verifyEmailMessage(to, `${base}/verify-email-address?token=${token}`, Math.round(hours));
      case 'reset-password':
        return resetPasswordMessage(to, `${base}/reset-password?token=${token}`, hours);
      case 'registration-attempt':
        return registrationAttemptMessage(to, `${base}/reset-password?token=${token}`, hours);
    }
  }

  private async recorded(causeId: string): Promise<boolean> {
    return streamHasEvents(this.deps.events, mailDeliveryStream(causeId));
  }

  private async record(event: RecordedEvent, p: Pending, outcome: Pick<MailRecordedData, 'status' | 'code' | 'messageId' | 'reason'>): Promise<void> {
    const data: MailRecordedData = {
      causeId: event.id,
      uid: event.streamId.slice('user-'.length),
      kind: p.kind,
      attempts: p.attempts,
      at: new Date(this.now()).toISOString(),
      ...outcome,
    };
    // A failed write throws: the reactor handles the event again, finds no record and (for a sent mail)
    // sends it again with the same Message-ID: the narrow window of the class comment.
    const r = await executeCommand(this.deps.events, mailDeliveryStream(event.id), mailDeliveryDecider, { type: 'RecordMail', data }, { ...systemContext(data.uid, event.id), ...(event.metadata?.correlationId ? { correlationId: event.metadata.correlationId } : {}) });
    this.pending.delete(event.id);
    if (r.events.length === 0) return; // recorded already (another try, another process)
    this.counts[outcome.status]++;
    for (const o of this.observers) o.outcome(p.kind, outcome.status);
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}

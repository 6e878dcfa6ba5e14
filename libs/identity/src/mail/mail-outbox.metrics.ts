import { Counter, Gauge, Registry } from 'prom-client';
import type { MailKind, MailStatus } from '../domain/mail-delivery.decider';
import type { MailOutbox } from './mail-outbox';

const KINDS: MailKind[] = ['verify-email', 'reset-password', 'registration-attempt', 'security-notice'];
const STATES = ['off', 'idle', 'sending', 'retrying'] as const;

/**
 * The mail outbox on /metrics (issue 31). Every labelled series starts at 0 (an alert on `increase(...)`
 * sees the first failure after a start):
 * - gridrocket_mail_outbox_pending: mails asked for and not yet taken by the server (nor failed for good);
 * - gridrocket_mail_outbox_oldest_pending_seconds: how long the oldest of them has waited (0 when none);
 * - gridrocket_mail_outbox_state{state}: 1 for the outbox's state (off, idle, sending, retrying);
 * - gridrocket_mail_outbox_sent_total{kind}, gridrocket_mail_outbox_failed_total{kind} (refused for good,
 *   5yz), gridrocket_mail_outbox_skipped_total{kind} (link dead before the server took it);
 * - gridrocket_mail_outbox_retries_total{kind}: tries the server failed for now (4yz, no connection).
 */
export function registerMailOutboxMetrics(registry: Registry, outbox: MailOutbox): void {
  const registers = [registry];
  new Gauge({
    name: 'gridrocket_mail_outbox_pending',
    help: 'Mails asked for and not yet taken by the mail server (nor refused for good)',
    registers,
    collect() {
      this.set(outbox.status().pending);
    },
  });
  new Gauge({
    name: 'gridrocket_mail_outbox_oldest_pending_seconds',
    help: 'How long the oldest waiting mail has waited (0 when none)',
    registers,
    collect() {
      this.set(outbox.status().oldestPendingSeconds);
    },
  });
  new Gauge({
    name: 'gridrocket_mail_outbox_state',
    help: 'State of the mail outbox: 1 for the state it is in (off: not run by this process)',
    labelNames: ['state'],
    registers,
    collect() {
      const now = outbox.status().state;
      for (const state of STATES) this.set({ state }, state === now ? 1 : 0);
    },
  });
  const counter = (name: string, help: string) => {
    const c = new Counter({ name, help, labelNames: ['kind'], registers });
    for (const kind of KINDS) c.inc({ kind }, 0);
    return c;
  };
  const outcomes: Record<MailStatus, Counter<'kind'>> = {
    sent: counter('gridrocket_mail_outbox_sent_total', 'Mails the mail server took (or the mail folder got), by kind'),
    failed: counter('gridrocket_mail_outbox_failed_total', 'Mails the mail server refused for good (5yz), by kind'),
    skipped: counter('gridrocket_mail_outbox_skipped_total', 'Mails not sent because their link was replaced, used or expired first, by kind'),
  };
  const retries = counter('gridrocket_mail_outbox_retries_total', 'Tries the mail server failed for now (4yz reply or no connection), tried again later, by kind');
  outbox.observe({
    outcome: (kind, status) => outcomes[status].inc({ kind }),
    retry: (kind) => retries.inc({ kind }),
  });
}

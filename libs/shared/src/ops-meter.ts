/**
 * The operators' counters that contexts without a dependency on the streaming context report to
 * (mail in identity, alert deliveries in alerts): MetricsService implements it and the global
 * StreamingModule provides it as OPS_METER. Optional everywhere: a context runs without it (unit tests).
 */
export type MailOutcome = 'sent' | 'failed';

export interface OpsMeter {
  /** One mail handed to the mailer: `kind` as mailKind() tells it; `failed` when the mailer threw. */
  mailSent(kind: string, outcome: MailOutcome): void;
  /** One alert delivery recorded: its channel and status (delivered, failed, rate-limited, refused). */
  alertDelivered(channel: string, outcome: string): void;
  /** Creates each kind's series at 0 (so that `increase()` sees the first failure after a start). */
  declareMailKinds(kinds: readonly string[]): void;
  declareAlertOutcomes(channels: readonly string[], outcomes: readonly string[]): void;
}

export const OPS_METER = Symbol('OPS_METER');

import type { Alert } from '../domain/alert-mapping';
import type { AlertChannel } from '../domain/alert.kinds';
import type { DeliveryStatus } from '../domain/alert-delivery.decider';

/** Where one user's alert goes on one channel, secrets opened for this delivery only. */
export type SinkTarget =
  | { channel: 'email'; to: string }
  | { channel: 'webhook'; url: string; secret: string }
  | { channel: 'telegram'; botToken: string; chatId: string };

export interface SinkOutcome {
  status: DeliveryStatus;
  code: number | null;
  attempts: number;
  /** Why it failed, with no secret in it. */
  error: string | null;
  /**
   * Not the end: the far end may take it later (e-mail: a 4yz reply or no connection after the sink's
   * own tries). Nothing is recorded; the dispatcher hands the alert back to its reactor, which tries
   * again with back-off for as long as it takes (an SMTP outage loses no alert mail).
   */
  later?: boolean;
}

/**
 * The notification sink port (DESIGN.md, "Heavy work, the watchdog and alerts"): one adapter per
 * channel. An adapter retries what may go through later (with back-off) and answers what happened;
 * it never throws for a refusal of the far end, only when it was stopped (`signal`).
 */
export interface NotificationSink {
  readonly channel: AlertChannel;
  send(alert: Alert, deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome>;
}

/** Waits `ms`, or less when `signal` aborts (then throws, so that the delivery is not recorded). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopped'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('stopped'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import { Gauge, Registry } from 'prom-client';
import type { AlertDispatcher } from './alert-dispatcher';

/**
 * Alert deliveries waiting for a channel on /metrics (issue 31): an alert mail the mail server has not
 * taken yet (down, or 4yz after the sink's tries) is tried again with back-off, never dropped.
 * - gridrocket_alerts_waiting: deliveries answered `later` and not recorded yet;
 * - gridrocket_alerts_oldest_waiting_seconds: how long the oldest has waited (0 when none).
 * The outcomes are gridrocket_alerts_total{channel,outcome} (MetricsService).
 */
export function registerAlertDispatcherMetrics(registry: Registry, dispatcher: AlertDispatcher): void {
  const registers = [registry];
  new Gauge({
    name: 'gridrocket_alerts_waiting',
    help: 'Alert deliveries a channel has not taken yet (alert mails while the mail server is away), tried again with back-off',
    registers,
    collect() {
      this.set(dispatcher.waitingDeliveries().waiting);
    },
  });
  new Gauge({
    name: 'gridrocket_alerts_oldest_waiting_seconds',
    help: 'How long the oldest waiting alert delivery has waited (0 when none)',
    registers,
    collect() {
      this.set(dispatcher.waitingDeliveries().oldestWaitingSeconds);
    },
  });
}

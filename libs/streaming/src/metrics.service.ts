import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ConsumerState, ConsumerStatus } from '@gridrocket/read-store';
import type { MailOutcome, OpsMeter } from '@gridrocket/shared/runtime';
import { PAUSE_REASONS, type FleetSummary, type PauseReason, type RunnerBotsReport } from './lease-fleet';
import type { OwnershipStatus } from './ownership.port';

export type Source = () => Promise<number | null> | number | null;
export type SourceName =
  | 'forwarderLag'
  | 'forwarderDelivering'
  | 'forwarderUndeliveredSeconds'
  | 'forwarderLastDelivery'
  | 'forwarderBuffered'
  | 'projectionLag'
  | 'headPosition'
  | 'runningBots';

/**
 * The operators' numbers, in Prometheus format (GET /metrics). One registry per
 * instance (several apps may live in one test process). Other contexts count
 * through the small methods below; lags are read when Prometheus scrapes.
 *
 * Names: gridrocket_commands_total{command,outcome}, gridrocket_command_seconds,
 * gridrocket_events_appended_total{type,category}, gridrocket_events_forwarded_total{topic},
 * gridrocket_forwarder_lag_events, gridrocket_forwarder_latency_seconds,
 * gridrocket_forwarder_delivering (1 while publishes go through, 0 while they fail or hang or the forwarder is stopped),
 * gridrocket_forwarder_undelivered_seconds (how long the batch in hand has waited for the sink),
 * gridrocket_forwarder_last_delivery_timestamp_seconds, gridrocket_forwarder_buffered_events,
 * gridrocket_forwarder_publish_failures_total{error}, gridrocket_forwarder_producer_resets_total,
 * gridrocket_projection_lag_events, gridrocket_running_bots (trading now), gridrocket_paused_bots{reason},
 * gridrocket_runner_trading, gridrocket_runner_owned_partitions, gridrocket_runner_lease_age_seconds (this process's
 * runner), gridrocket_runners_alive, gridrocket_partitions_unowned (the fleet, where no runner runs here),
 * gridrocket_exchange_errors_total{exchange,kind}, gridrocket_http_requests_total{method,route,status},
 * gridrocket_http_request_seconds{method,route},
 * gridrocket_consumer_lag_events{consumer,kind}, gridrocket_consumer_state{consumer,kind,state} (1 for the
 * current state), gridrocket_consumer_failures_total{consumer,kind} (counter: drops, rejected commits,
 * refused publishes since start-up), gridrocket_consumer_retrying{consumer,kind} (failures in a row now),
 * gridrocket_mail_sent_total{kind,outcome}, gridrocket_alerts_total{channel,outcome},
 * gridrocket_watchdog_findings_total{kind}, plus the process defaults (gridrocket_process_*, gridrocket_nodejs_*).
 *
 * Alerting on `increase(...)` needs a series to exist before its first increment (issue 31: the first
 * failure after a start was invisible): every known label combination is created at 0 (the commands
 * the bus has handlers for × ok/rejected/failed, the mail kinds, the alert channels × statuses, the
 * watchdog's finding kinds, the usual forwarder errors). Only counters end in `_total`
 * (`promtool check metrics`).
 */
export const COMMAND_OUTCOMES = ['ok', 'rejected', 'failed'] as const;
export const MAIL_OUTCOMES: readonly MailOutcome[] = ['sent', 'failed'];
/** What a forwarder publish fails with while a broker is away or slow (kafkajs error classes), and the fallback. */
export const USUAL_FORWARDER_ERRORS = ['KafkaJSConnectionError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSRequestTimeoutError', 'KafkaJSNonRetriableError', 'Error'] as const;
/** prom-client's default gauges named `_total` (not counters: promtool refuses them); their per-type gauges stay (sum() them). */
const NON_COUNTERS_NAMED_TOTAL = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

export class MetricsService implements OpsMeter {
  readonly registry = new Registry();
  readonly commands: Counter<'command' | 'outcome'>;
  readonly commandSeconds: Histogram<'command'>;
  readonly eventsAppended: Counter<'type' | 'category'>;
  readonly eventsForwarded: Counter<'topic'>;
  readonly forwarderLatency: Histogram;
  readonly forwarderFailures: Counter<'error'>;
  readonly producerResets: Counter;
  readonly topicsRecreated: Counter<'topic'>;
  readonly exchangeErrors: Counter<'exchange' | 'kind'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpSeconds: Histogram<'method' | 'route'>;
  readonly mail: Counter<'kind' | 'outcome'>;
  readonly alerts: Counter<'channel' | 'outcome'>;
  readonly watchdogFindings: Counter<'kind'>;
  private readonly sources = new Map<string, Source>();
  private runningBotsValue: number | null = null;
  private consumers: (() => Promise<ConsumerStatus[]>) | null = null;
  /** The runner of this process (its own report wins), else the fleet as the event store shows it (issue 41). */
  private runnerReport: (() => RunnerBotsReport) | null = null;
  private fleet: (() => Promise<FleetSummary | null>) | null = null;
  private ownership: (() => OwnershipStatus | null) | null = null;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    if (options.defaultMetrics !== false) {
      collectDefaultMetrics({ register: this.registry, prefix: 'gridrocket_' });
      for (const name of NON_COUNTERS_NAMED_TOTAL) this.registry.removeSingleMetric(`gridrocket_${name}`);
    }
    this.commands = new Counter({ name: 'gridrocket_commands_total', help: 'Commands handled, by command and outcome (ok, rejected, failed)', labelNames: ['command', 'outcome'], registers });
    this.commandSeconds = new Histogram({ name: 'gridrocket_command_seconds', help: 'Time to handle a command', labelNames: ['command'], registers, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] });
    this.eventsAppended = new Counter({ name: 'gridrocket_events_appended_total', help: 'Events appended to the event store (seen by this process since it started)', labelNames: ['type', 'category'], registers });
    this.eventsForwarded = new Counter({ name: 'gridrocket_events_forwarded_total', help: 'Events the forwarder published, by topic', labelNames: ['topic'], registers });
    this.forwarderLatency = new Histogram({ name: 'gridrocket_forwarder_latency_seconds', help: 'From the event store write to the stream ack, per batch', registers, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30] });
    this.forwarderFailures = new Counter({ name: 'gridrocket_forwarder_publish_failures_total', help: 'Publishes (and checkpoint writes) of the forwarder that failed and are retried, by error (kafkajs error type or name)', labelNames: ['error'], registers });
    this.topicsRecreated = new Counter({ name: 'gridrocket_forwarder_topics_recreated_total', help: 'Topics the forwarder found missing on Kafka after it had sent events to them (an empty or replaced cluster) and created again: the events before are not on them (npm run republish)', labelNames: ['topic'], registers });
    this.producerResets = new Counter({ name: 'gridrocket_forwarder_producer_resets_total', help: 'Kafka producers the sink closed and replaced after a fatal error (UNKNOWN_PRODUCER_ID, OUT_OF_ORDER_SEQUENCE_NUMBER, ...)', registers });
    this.exchangeErrors = new Counter({ name: 'gridrocket_exchange_errors_total', help: 'Errors from exchanges, by exchange and kind', labelNames: ['exchange', 'kind'], registers });
    this.httpRequests = new Counter({ name: 'gridrocket_http_requests_total', help: 'HTTP requests, by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.httpSeconds = new Histogram({ name: 'gridrocket_http_request_seconds', help: 'HTTP request duration', labelNames: ['method', 'route'], registers, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] });
    this.mail = new Counter({ name: 'gridrocket_mail_sent_total', help: 'Mails handed to the mailer, by kind (verification, reset, registration-attempt, alert, other) and outcome (sent, failed)', labelNames: ['kind', 'outcome'], registers });
    this.alerts = new Counter({ name: 'gridrocket_alerts_total', help: 'Alert deliveries recorded, by channel and outcome (delivered, failed, rate-limited, refused)', labelNames: ['channel', 'outcome'], registers });
    this.watchdogFindings = new Counter({ name: 'gridrocket_watchdog_findings_total', help: 'Differences the watchdog recorded (drift kinds and not-trading reasons)', labelNames: ['kind'], registers });
    for (const error of USUAL_FORWARDER_ERRORS) this.forwarderFailures.inc({ error }, 0);
    const sources = this.sources;
    const gauge = (name: string, help: string, key: string) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const source = sources.get(key);
          if (!source) return;
          try {
            const v = await source();
            if (v !== null && Number.isFinite(v)) this.set(v);
          } catch {
            // a source that fails leaves the last value
          }
        },
      });
    gauge('gridrocket_forwarder_lag_events', 'Events in the store not yet published by the forwarder', 'forwarderLag');
    gauge('gridrocket_forwarder_delivering', 'Whether the forwarder gets events out: 1 while publishes go through, 0 while they fail or hang (or it is stopped)', 'forwarderDelivering');
    gauge('gridrocket_forwarder_undelivered_seconds', 'How long the batch the forwarder holds has waited for the stream (0 when none)', 'forwarderUndeliveredSeconds');
    gauge('gridrocket_forwarder_last_delivery_timestamp_seconds', 'When the stream last acknowledged a batch of the forwarder (Unix time)', 'forwarderLastDelivery');
    gauge('gridrocket_forwarder_buffered_events', 'Events the forwarder holds in memory (at most one batch)', 'forwarderBuffered');
    gauge('gridrocket_projection_lag_events', 'Events in the store not yet applied by the projections', 'projectionLag');
    gauge('gridrocket_event_store_head_position', 'Position of the newest event in the store', 'headPosition');
    const self = this;
    let snapshot: { at: number; list: Promise<ConsumerStatus[]> } | null = null;
    const consumers = () => {
      // one read per scrape, shared by the four gauges
      if (!snapshot || Date.now() - snapshot.at > 200) snapshot = { at: Date.now(), list: (self.consumers?.() ?? Promise.resolve([])).catch(() => []) };
      return snapshot.list;
    };
    // every state a consumer reports (ConsumerState); `starting` was listed here once but no consumer ever reported it
    const STATES = ['live', 'catching-up', 'retrying', 'stopped'] as const satisfies readonly ConsumerState[];
    const perConsumer = (name: string, help: string, labelNames: string[], fill: (g: Gauge<string>, c: ConsumerStatus) => void) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          const list = await consumers();
          this.reset();
          for (const c of list) fill(this, c);
        },
      });
    perConsumer('gridrocket_consumer_lag_events', 'Log positions a consumer (projector, reactor, forwarder) is behind the head', ['consumer', 'kind'], (g, c) =>
      g.set({ consumer: c.name, kind: c.kind }, Number(c.lag)),
    );
    perConsumer('gridrocket_consumer_state', 'State of a consumer: 1 for the state it is in', ['consumer', 'kind', 'state'], (g, c) => {
      for (const state of STATES) g.set({ consumer: c.name, kind: c.kind, state }, c.state === state ? 1 : 0);
    });
    // a counter read at scrape time: the consumer keeps the count (since start-up, never down)
    new Counter({
      name: 'gridrocket_consumer_failures_total',
      help: 'Failures a consumer met since start-up (subscription drops, rejected commits, refused publishes)',
      labelNames: ['consumer', 'kind'],
      registers,
      async collect() {
        const list = await consumers();
        this.reset();
        for (const c of list) this.inc({ consumer: c.name, kind: c.kind }, c.failures);
      },
    });
    perConsumer('gridrocket_consumer_retrying', 'Failures in a row a consumer is retrying now (0: through)', ['consumer', 'kind'], (g, c) =>
      g.set({ consumer: c.name, kind: c.kind }, c.retries),
    );
    gauge('gridrocket_running_bots', 'Bots trading now, paused ones not counted (as this process\'s runner reports it, else as the runners\' heartbeats do, else as the bot list shows it)', 'runningBots');
    // issue 41: bots that should trade and do not, by reason; and the ownership lease of this process's runner
    const paused = new Gauge({
      name: 'gridrocket_paused_bots',
      help: 'Bots that should trade and do not, by reason: ownership (no runner can act for them: its lease lapsed, or no live runner holds their partition), venue-rate-limit, venue-errors',
      labelNames: ['reason'],
      registers,
      async collect() {
        const now = await self.pausedNow();
        if (now) for (const reason of PAUSE_REASONS) this.set({ reason }, now[reason]);
      },
    });
    for (const reason of PAUSE_REASONS) paused.set({ reason }, 0);
    const ownershipGauge = (name: string, help: string, read: (s: OwnershipStatus) => number | null) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const status = self.ownership?.();
          const v = status ? read(status) : null;
          if (v !== null && Number.isFinite(v)) this.set(v);
        },
      });
    ownershipGauge('gridrocket_runner_trading', 'Whether this runner may act for its bots: 1 while its ownership lease is valid (always, embedded), 0 while it lapsed', (s) => (s.trading ? 1 : 0));
    ownershipGauge('gridrocket_runner_owned_partitions', 'Partitions this runner holds now', (s) => s.owned.length);
    ownershipGauge('gridrocket_runner_lease_age_seconds', 'Since the renewal this runner\'s lease runs from was sent (grows while the event store does not confirm renewals)', (s) => (s.lease?.ageMs == null ? null : s.lease.ageMs / 1000));
    const fleetGauge = (name: string, help: string, read: (f: FleetSummary) => number) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          if (self.runnerReport || !self.fleet) return;
          const f = await self.fleet().catch(() => null);
          if (f) this.set(read(f));
        },
      });
    fleetGauge('gridrocket_runners_alive', 'Runners of the group whose heartbeat came within their takeover time (the event store\'s view; where no runner runs in this process)', (f) => f.members.filter((m) => m.alive).length);
    fleetGauge('gridrocket_partitions_unowned', 'Partitions no live runner holds: their bots do not trade (where no runner runs in this process)', (f) => f.unowned.length);
  }

  private async pausedNow(): Promise<Record<PauseReason, number> | null> {
    if (this.runnerReport) return this.runnerReport().paused;
    if (this.fleet) return (await this.fleet().catch(() => null))?.pausedBots ?? null;
    return null;
  }

  /** This process runs bots: its runner's report is what the bot gauges say (read when scraped). */
  watchRunner(report: () => RunnerBotsReport): void {
    this.runnerReport = report;
    this.runningBotsValue = 0;
    this.sources.set('runningBots', () => report().running);
  }

  /** The ownership adapter of this process's runner (gridrocket_runner_*). */
  watchOwnership(status: () => OwnershipStatus | null): void {
    this.ownership = status;
  }

  /** No runner in this process: the runners' heartbeats in the event store say what the fleet does. */
  watchFleet(summary: () => Promise<FleetSummary | null>): void {
    this.fleet = summary;
    if (this.runnerReport) return;
    const fallback = this.sources.get('runningBots');
    this.sources.set('runningBots', async () => {
      const f = await summary().catch(() => null);
      return f ? f.runningBots : ((await fallback?.()) ?? null);
    });
  }

  /** Registers what a gauge reads at scrape time. */
  setSource(name: SourceName, source: Source): void {
    if (name === 'runningBots' && (this.runningBotsValue !== null || this.fleet)) return;
    this.sources.set(name, source);
  }

  /** What the consumer gauges read at scrape time. */
  setConsumers(source: () => Promise<ConsumerStatus[]>): void {
    this.consumers = source;
  }

  /** Creates a command's series at 0 for each outcome (the bus announces the commands it has handlers for). */
  declareCommand(command: string): void {
    for (const outcome of COMMAND_OUTCOMES) this.commands.inc({ command, outcome }, 0);
  }

  declareMailKinds(kinds: readonly string[]): void {
    for (const kind of kinds) for (const outcome of MAIL_OUTCOMES) this.mail.inc({ kind, outcome }, 0);
  }

  declareAlertOutcomes(channels: readonly string[], outcomes: readonly string[]): void {
    for (const channel of channels) for (const outcome of outcomes) this.alerts.inc({ channel, outcome }, 0);
  }

  declareWatchdogKinds(kinds: readonly string[]): void {
    for (const kind of kinds) this.watchdogFindings.inc({ kind }, 0);
  }

  mailSent(kind: string, outcome: MailOutcome): void {
    this.mail.inc({ kind, outcome });
  }

  alertDelivered(channel: string, outcome: string): void {
    this.alerts.inc({ channel, outcome });
  }

  watchdogFinding(kind: string): void {
    this.watchdogFindings.inc({ kind });
  }

  commandHandled(command: string, outcome: 'ok' | 'rejected' | 'failed', seconds?: number): void {
    this.commands.inc({ command, outcome });
    if (seconds !== undefined) this.commandSeconds.observe({ command }, seconds);
  }

  eventAppended(type: string, streamId: string): void {
    this.eventsAppended.inc({ type, category: streamId.split('-')[0] || 'other' });
  }

  /**
   * A failed publish or checkpoint write of the forwarder, labelled by what failed underneath: kafkajs's retrier
   * wraps the cause in KafkaJSNonRetriableError or KafkaJSNumberOfRetriesExceeded (its `cause` chain,
   * kafkajs src/retry/index.js), so the label is the deepest error's protocol type (UNKNOWN_PRODUCER_ID, …) or
   * class name: KafkaJSConnectionError while the broker refuses connections, KafkaJSRequestTimeoutError while
   * it does not answer (issue 41: every outage was labelled KafkaJSNonRetriableError).
   */
  forwarderFailed(err: Error): void {
    let e: (Error & { type?: unknown; cause?: unknown }) | undefined = err;
    let label = 'Error';
    for (let depth = 0; e && typeof e === 'object' && depth < 6; depth++, e = e.cause as typeof e) {
      const type = e.type;
      if (typeof type === 'string' && /^[A-Z_]+$/.test(type)) label = type;
      else if (typeof e.name === 'string' && /^[A-Za-z]+$/.test(e.name)) label = e.name;
    }
    this.forwarderFailures.inc({ error: label });
  }

  exchangeError(exchange: string, kind = 'error'): void {
    this.exchangeErrors.inc({ exchange, kind });
  }

  /** The runner reports how many bots it runs; from then on its figure wins over the bot list's (its report, when watched, wins over both). */
  setRunningBots(count: number): void {
    if (this.runnerReport) return;
    this.runningBotsValue = count;
    this.sources.set('runningBots', () => this.runningBotsValue);
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpSeconds.observe({ method, route }, seconds);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}

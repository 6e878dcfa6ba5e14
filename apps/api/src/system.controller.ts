import { Controller, Get, Optional } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { hostname } from 'node:os';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { MailOutboxLifecycle } from '@gridrocket/identity/nest';
import { AlertDispatcherLifecycle } from '@gridrocket/alerts/nest';
import { Forwarder, noPauses, type FleetSummary } from '@gridrocket/streaming';
import { consumerStatuses, FleetWatch } from '@gridrocket/streaming/nest';
import { ExchangeAccess } from '@gridrocket/credentials/nest';
import { GridRunnerService } from '@gridrocket/trading/nest';
import type { RunnerHealth } from '@gridrocket/trading';
import { signupLinks } from '@gridrocket/exchanges/venues';

@ApiTags('system')
@Controller()
export class SystemController {
  constructor(
    private readonly ports: EventSourcedPorts,
    @Optional() private readonly forwarder?: Forwarder,
    @Optional() private readonly mail?: MailOutboxLifecycle,
    @Optional() private readonly alerts?: AlertDispatcherLifecycle,
    @Optional() private readonly exchanges?: ExchangeAccess,
    @Optional() private readonly fleet?: FleetWatch,
    @Optional() private readonly runner?: GridRunnerService,
  ) {}

  @Get('health')
  async health() {
    const head = await this.ports.events.headPosition();
    const projection = this.ports.projector.health();
    // projector, reactors (runner, …) and forwarder: live, catching up or retrying, with lag and last error
    const consumers = await consumerStatuses(this.ports.config.projections ? this.ports.projector : null, this.forwarder ?? null, this.ports.reads);
    // whether events get out to the stream: not while publishes fail or hang (the broker away), with how long
    const forwarder = this.forwarder && this.ports.config.forwarder ? await this.forwarder.delivery() : null;
    // the mail outbox (issue 31): mails waiting (not yet taken by the mail server), the oldest one's age, and
    // whether the server is failing them now (retrying); 'off' in a process that does not send the mail
    const mail = this.mail?.outbox.status() ?? null;
    // alert deliveries a channel answered `later` (alert mails while the mail server is away), tried again with back-off
    const alerts = this.alerts?.dispatcher.waitingDeliveries() ?? null;
    // each venue's request budget as the install's runners use it (issue 39): the share used of its limit in the
    // current window, the share allowed, and a 429/418 pause in force (every call to the venue waits until then)
    const venues = (await this.exchanges?.venueBudgets().catch(() => null)) ?? [];
    // the runners (issue 41): who holds which partitions, their bots running and paused with why, as the runners'
    // heartbeats in the event store say (leases), or this process's own runner (embedded); null: no runner known
    const local = this.runner ? await this.runner.health().catch(() => null) : null;
    const runners = (await this.fleet?.summary().catch(() => null)) ?? (local ? embeddedFleet(local) : null);
    const ok =
      projection.failed === null &&
      (runners === null || runners.trading) &&
      (local === null || local.trading) &&
      consumers.every((c) => c.state !== 'retrying') &&
      (forwarder === null || forwarder.state !== 'retrying') &&
      (mail === null || mail.state !== 'retrying');
    return {
      status: ok ? 'ok' : 'degraded',
      eventStore: this.ports.events.kind,
      readStore: this.ports.reads.kind,
      headPosition: head.toString(),
      projectionPosition: projection.position.toString(),
      projectionLag: (head - projection.position).toString(),
      // catch-up progress of the read models (100 when live): the health answers throughout a catch-up
      catchUpPercent: head === 0n ? 100 : Number((projection.position * 1000n) / head) / 10,
      projectionError: projection.failed,
      consumers,
      forwarder,
      mail,
      alerts,
      venues,
      runners,
      pid: process.pid,
    };
  }

  /** What the dashboard needs to know about this deployment (no secrets). */
  @Get('config')
  clientConfig() {
    return {
      contactEmail: this.ports.config.contactEmail,
      social: this.ports.config.social,
      exchangeSignup: signupLinks(this.ports.config.exchangeSignup),
      providers: { google: this.ports.config.oauth.google !== null, facebook: this.ports.config.oauth.facebook !== null },
    };
  }
}

/** This process's one runner as a fleet of one (embedded ownership: no heartbeats in the store). */
function embeddedFleet(h: RunnerHealth): FleetSummary {
  return {
    ownership: 'embedded',
    partitions: h.ownership.partitions,
    members: [{ name: h.runner, instance: null, pid: h.pid, host: hostname(), alive: true, heartbeatAgeSeconds: 0, partitions: h.ownership.owned, running: h.bots.running, paused: h.bots.paused }],
    unowned: h.trading ? [] : [0],
    trading: h.trading && h.bots.paused.ownership === 0,
    runningBots: h.bots.running,
    pausedBots: { ...noPauses(), ...h.bots.paused },
  };
}

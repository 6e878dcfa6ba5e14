import { FaultSchedule, InjectedFault } from '@gridrocket/event-store/testing/fault-schedule';
import type { EventSink } from '../event-sink.port';
import type { StreamMessage } from '../stream-message';

export interface SinkFaults {
  /** Share of publishes refused before anything is sent (broker away, not enough in-sync replicas). */
  failPublishRate?: number;
  /** Share of publishes sent whose acknowledgement is lost (the forwarder sends them again: duplicates). */
  lostAckRate?: number;
  /** Share of publishes that hang this long before they fail (a request timeout), ms. */
  timeoutMs?: number;
  timeoutRate?: number;
}

/** The event-sink port with faults injected on a schedule (what Kafka does when a broker goes or a request times out). */
export class FaultySink implements EventSink {
  readonly kind: string;

  constructor(
    readonly inner: EventSink,
    readonly schedule: FaultSchedule,
    readonly faults: SinkFaults = {},
  ) {
    this.kind = inner.kind;
  }

  start(topics: string[]): Promise<void> {
    return this.inner.start(topics);
  }

  async publish(messages: StreamMessage[]): Promise<void> {
    if (this.schedule.hit('publish.fail', this.faults.failPublishRate)) throw new InjectedFault('publish refused', 'publish.fail');
    if (this.schedule.hit('publish.timeout', this.faults.timeoutRate)) {
      await new Promise((r) => setTimeout(r, this.faults.timeoutMs ?? 50));
      throw new InjectedFault('publish timed out', 'publish.timeout');
    }
    await this.inner.publish(messages);
    if (this.schedule.hit('publish.lost-ack', this.faults.lostAckRate)) throw new InjectedFault('publish acknowledgement lost', 'publish.lost-ack', true);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

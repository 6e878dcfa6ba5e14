import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError, KafkaJSRequestTimeoutError } from 'kafkajs';
import type { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import type { EventSink } from '../event-sink.port';
import type { StreamMessage } from '../stream-message';

// kafkajs's own table of the broker's error codes (src/protocol/error.js), as its response decoders use it
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as { createErrorFromCode(code: number): KafkaJSProtocolError };

/** Broker error codes (Kafka's protocol; kafkajs src/protocol/error.js). */
export const KAFKA_ERROR_CODES = {
  NOT_LEADER_FOR_PARTITION: 6,
  REQUEST_TIMED_OUT: 7,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  INVALID_PRODUCER_EPOCH: 47,
  UNKNOWN_PRODUCER_ID: 59,
} as const;

/** A broker's error answer, built as kafkajs builds it from the response's error code. */
export function kafkaProtocolError(code: number): KafkaJSProtocolError {
  return createErrorFromCode(code);
}

const BROKER = '127.0.0.1:9092';

/**
 * What a kafkajs producer's sendBatch rejects with, by kind (how src/producer/sendMessages.js and
 * src/retry/index.js surface them):
 * - `connection`: KafkaJSConnectionError (ECONNREFUSED: the broker is away) — retriable;
 * - `retries-exceeded`: KafkaJSNumberOfRetriesExceeded wrapping a connection error (the producer's
 *   bounded retry gave up during an outage) — not retriable by kafkajs, retried by the forwarder;
 * - `not-enough-replicas`: KafkaJSProtocolError NOT_ENOUGH_REPLICAS (19, retriable);
 * - `not-leader`: KafkaJSProtocolError NOT_LEADER_FOR_PARTITION (6, retriable: a leader moved);
 * - `timeout`: KafkaJSRequestTimeoutError (no answer within the request timeout);
 * - `unknown-producer` / `out-of-order`: KafkaJSProtocolError UNKNOWN_PRODUCER_ID (59) /
 *   OUT_OF_ORDER_SEQUENCE_NUMBER (45), fatal for the producer (bailed out of the retry, unwrapped).
 */
export type KafkaFaultKind = 'connection' | 'retries-exceeded' | 'not-enough-replicas' | 'not-leader' | 'timeout' | 'unknown-producer' | 'out-of-order';

export function kafkaFault(kind: KafkaFaultKind): Error {
  switch (kind) {
    case 'connection':
      return new KafkaJSConnectionError(`Connection error: connect ECONNREFUSED ${BROKER}`, { broker: BROKER, code: 'ECONNREFUSED' });
    case 'retries-exceeded': {
      const cause = new KafkaJSConnectionError(`Connection error: connect ECONNREFUSED ${BROKER}`, { broker: BROKER, code: 'ECONNREFUSED' });
      return new KafkaJSNumberOfRetriesExceeded(cause, { retryCount: 5, retryTime: 4800 });
    }
    case 'not-enough-replicas':
      return kafkaProtocolError(KAFKA_ERROR_CODES.NOT_ENOUGH_REPLICAS);
    case 'not-leader':
      return kafkaProtocolError(KAFKA_ERROR_CODES.NOT_LEADER_FOR_PARTITION);
    case 'timeout':
      return new KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 7) timed out', {
        broker: BROKER,
        correlationId: 1,
        createdAt: Date.now(),
        sentAt: Date.now(),
        pendingDuration: 0,
      } as never);
    case 'unknown-producer':
      return kafkaProtocolError(KAFKA_ERROR_CODES.UNKNOWN_PRODUCER_ID);
    case 'out-of-order':
      return kafkaProtocolError(KAFKA_ERROR_CODES.OUT_OF_ORDER_SEQUENCE_NUMBER);
  }
}

const REFUSALS: KafkaFaultKind[] = ['connection', 'retries-exceeded', 'not-enough-replicas', 'not-leader'];

export interface SinkFaults {
  /** Share of publishes refused before anything is sent (broker away, not enough in-sync replicas, a leader moved). */
  failPublishRate?: number;
  /** Share of publishes sent whose acknowledgement is lost: a request timeout after the broker wrote them (the forwarder sends them again: duplicates). */
  lostAckRate?: number;
  /** Share of publishes that hang this long before they fail with a request timeout, ms. */
  timeoutMs?: number;
  timeoutRate?: number;
  /** Share of publishes refused with a fatal producer error (UNKNOWN_PRODUCER_ID, OUT_OF_ORDER_SEQUENCE_NUMBER). */
  fatalRate?: number;
}

/**
 * The event-sink port with faults injected on a schedule, in kafkajs's own error classes (what a
 * KafkaSink's publish rejects with when a broker goes, a request times out, or the producer's state
 * is lost). The fault counted under `publish.<kind>` in the schedule's summary; `thrown` lists every
 * error thrown, in order.
 */
export class FaultySink implements EventSink {
  readonly kind: string;
  readonly thrown: Error[] = [];

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

  private fail(err: Error): never {
    this.thrown.push(err);
    throw err;
  }

  async publish(messages: StreamMessage[]): Promise<void> {
    if (this.schedule.hit('publish.fail', this.faults.failPublishRate)) {
      this.fail(kafkaFault(REFUSALS[Math.floor(this.schedule.next() * REFUSALS.length)]));
    }
    if (this.schedule.hit('publish.fatal', this.faults.fatalRate)) this.fail(kafkaFault(this.schedule.next() < 0.5 ? 'unknown-producer' : 'out-of-order'));
    if (this.schedule.hit('publish.timeout', this.faults.timeoutRate)) {
      await new Promise((r) => setTimeout(r, this.faults.timeoutMs ?? 50));
      this.fail(kafkaFault('timeout'));
    }
    await this.inner.publish(messages);
    if (this.schedule.hit('publish.lost-ack', this.faults.lostAckRate)) this.fail(kafkaFault('timeout'));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

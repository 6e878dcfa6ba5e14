import type { RecordedEvent } from '@gridrocket/event-store';

/** The topics the forwarder publishes to, by stream prefix. */
export const TOPICS = {
  bots: 'gridrocket.bots',
  credentials: 'gridrocket.credentials',
  users: 'gridrocket.users',
  /** Streams of any other prefix, so that every event still goes out. */
  other: 'gridrocket.other',
} as const;

export type TopicMap = { prefix: string; topic: string }[];

export function defaultTopicMap(topicPrefix = ''): { routes: TopicMap; fallback: string } {
  return {
    routes: [
      { prefix: 'bot-', topic: topicPrefix + TOPICS.bots },
      { prefix: 'credential-', topic: topicPrefix + TOPICS.credentials },
      { prefix: 'user-', topic: topicPrefix + TOPICS.users },
    ],
    fallback: topicPrefix + TOPICS.other,
  };
}

export function allTopics(map: { routes: TopicMap; fallback: string }): string[] {
  return [...map.routes.map((r) => r.topic), map.fallback];
}

export function topicFor(streamId: string, map = defaultTopicMap()): string {
  return map.routes.find((r) => streamId.startsWith(r.prefix))?.topic ?? map.fallback;
}

/** Kafka headers of every message. */
export interface StreamHeaders {
  'event-id': string;
  'event-type': string;
  'correlation-id': string;
  [name: string]: string;
}

/** The JSON value of every message: the event without any secret. */
export interface StreamValue {
  id: string;
  type: string;
  streamId: string;
  revision: number;
  position: number;
  created: string;
  data: unknown;
  metadata: Record<string, unknown>;
  /** Paths of fields that were dropped because they hold (sealed) secrets. */
  redacted?: string[];
}

export interface StreamMessage {
  topic: string;
  key: string;
  headers: StreamHeaders;
  value: string;
  /** Where the event sits in the store (not sent; for the forwarder's bookkeeping). */
  position: bigint;
}

/** A value sealed with the keyring (`v1.<iv>.<tag>.<ciphertext>`, base64url parts). */
const SEALED = /^v1\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;
/** Field names that hold secrets or their ciphertexts, whatever their value looks like. */
const SECRET_NAME = /(secret|passw|passphrase|private|sealed|cipher|wrapped|datakey|token|apikeyenc)/i;

/**
 * Drops every field that holds a secret: a sealed value (ciphertext is still
 * not for Kafka: crypto-shredding must be able to make it unreadable, and a
 * broker keeps copies we do not control) or a field whose name says secret.
 * Returns a copy and the dropped paths; the input is not changed.
 */
export function scrubSecrets(value: unknown, path = ''): { value: unknown; redacted: string[] } {
  const redacted: string[] = [];
  const walk = (v: unknown, p: string): unknown => {
    if (Array.isArray(v)) return v.map((item, i) => walk(item, `${p}[${i}]`));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        const childPath = p ? `${p}.${k}` : k;
        if ((typeof child === 'string' && SEALED.test(child)) || (SECRET_NAME.test(k) && child !== null && child !== undefined)) {
          redacted.push(childPath);
          continue;
        }
        out[k] = walk(child, childPath);
      }
      return out;
    }
    if (typeof v === 'string' && SEALED.test(v)) {
      redacted.push(p || '(value)');
      return null;
    }
    return v;
  };
  return { value: walk(value, path), redacted };
}

/** The event as it leaves the system: secrets dropped, positions as numbers. */
export function toStreamValue(event: RecordedEvent): StreamValue {
  const data = scrubSecrets(event.data, 'data');
  const metadata = scrubSecrets(event.metadata, 'metadata');
  const value: StreamValue = {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: Number(event.position),
    created: event.created,
    data: data.value,
    metadata: metadata.value as Record<string, unknown>,
  };
  const redacted = [...data.redacted, ...metadata.redacted];
  if (redacted.length) value.redacted = redacted;
  return value;
}

/**
 * The message of an event. Its `value` (the scrubbed event as JSON) is built when it is first read, then
 * kept: the Kafka sink reads it as it sends; the embedded stream only when a tail or a snapshot reads it,
 * which most messages of a running server never are (issue 16: scrubbing and serialising every event
 * was about 2 % of the main thread under load). Whoever reads it gets the value without secrets.
 */
export function toStreamMessage(event: RecordedEvent, map = defaultTopicMap()): StreamMessage {
  let value: string | null = null;
  return {
    topic: topicFor(event.streamId, map),
    key: event.streamId,
    headers: {
      'event-id': event.id,
      'event-type': event.type,
      'correlation-id': String(event.metadata?.correlationId ?? ''),
    },
    get value() {
      return (value ??= JSON.stringify(toStreamValue(event)));
    },
    position: event.position,
  };
}

/** One line for an operator's terminal. */
export function formatForTerminal(value: StreamValue, json = false): string {
  if (json) return JSON.stringify(value);
  const m = value.metadata ?? {};
  return [
    String(m.occurredAt ?? value.created),
    `#${value.position}`,
    value.streamId + '@' + value.revision,
    value.type.padEnd(18),
    `user=${String(m.userId ?? '-')}`,
    `corr=${String(m.correlationId ?? '-')}`,
    JSON.stringify(value.data),
  ].join('  ');
}

import { EventEmitter } from 'node:events';
import type { EventSink } from './event-sink.port';
import type { StreamMessage } from './stream-message';

export interface TailOptions {
  /** Replays the messages still held in memory before going live. */
  fromBeginning?: boolean;
  types?: string[];
  topics?: string[];
}

/** An async-iterable live feed that can be closed from outside. */
export interface Tail extends AsyncIterable<StreamMessage> {
  close(): void;
}

/**
 * The embedded event stream: what Kafka is in production, in this process.
 * It keeps the newest `capacity` messages in memory (for `fromBeginning`
 * tails) and feeds live tails; a slow tail buffers, it never blocks the
 * forwarder.
 */
export class InProcessSink implements EventSink {
  readonly kind = 'in-process';
  private readonly emitter = new EventEmitter();
  /** The newest `capacity` messages: a ring (`next` is where the next one goes once it is full). */
  private readonly recent: StreamMessage[] = [];
  private next = 0;
  private readonly created = new Set<string>();
  private offset = 0;

  constructor(private readonly capacity = 10_000) {
    this.emitter.setMaxListeners(0);
  }

  async start(topics: string[]): Promise<void> {
    for (const t of topics) this.created.add(t);
  }

  topics(): string[] {
    return [...this.created];
  }

  async publish(messages: StreamMessage[]): Promise<void> {
    for (const m of messages) {
      if (!this.created.has(m.topic)) throw new Error(`Unknown topic ${m.topic}: start the sink with it`);
    }
    for (const m of messages) {
      // a ring, not push + splice: the splice moved the whole window on every batch once it was full
      if (this.recent.length < this.capacity) this.recent.push(m);
      else if (this.capacity > 0) {
        this.recent[this.next] = m;
        this.next = (this.next + 1) % this.capacity;
      }
      this.offset++;
      this.emitter.emit('message', m);
    }
  }

  /** Messages published since start-up (at most `capacity`), oldest first. */
  snapshot(): StreamMessage[] {
    return [...this.recent.slice(this.next), ...this.recent.slice(0, this.next)];
  }

  get published(): number {
    return this.offset;
  }

  tail(options: TailOptions = {}): Tail {
    const wanted = (m: StreamMessage) =>
      (!options.types?.length || options.types.includes(m.headers['event-type'])) && (!options.topics?.length || options.topics.includes(m.topic));
    const queue: StreamMessage[] = options.fromBeginning ? this.snapshot().filter(wanted) : [];
    let wake: (() => void) | null = null;
    let closed = false;
    const onMessage = (m: StreamMessage) => {
      if (!wanted(m)) return;
      queue.push(m);
      wake?.();
    };
    const close = () => {
      closed = true;
      this.emitter.off('message', onMessage);
      this.emitter.off('close', close);
      wake?.();
    };
    this.emitter.on('message', onMessage);
    this.emitter.on('close', close);
    async function* iterate(): AsyncGenerator<StreamMessage> {
      try {
        while (!closed) {
          while (queue.length) yield queue.shift()!;
          if (closed) break;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        close();
      }
    }
    const gen = iterate();
    return { [Symbol.asyncIterator]: () => gen, close };
  }

  async close(): Promise<void> {
    this.emitter.emit('close');
    this.emitter.removeAllListeners('message');
  }
}

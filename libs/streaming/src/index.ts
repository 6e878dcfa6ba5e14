/** The streaming context without Nest: stream messages, sinks, the forwarder, ownership, metrics. Nest wiring: ./nest.ts. */
export * from './stream-message';
export * from './event-sink.port';
export * from './in-process.sink';
export * from './kafka.client';
export * from './kafka.sink';
export * from './forwarder';
export * from './ownership.port';
export * from './embedded.ownership';
export * from './kafka.ownership';
export * from './fenced.ownership';
export * from './lease';
export * from './metrics.service';

/** The streaming context's Nest entry (`@gridrocket/streaming/nest`): module, Nest logger, observability. */
export * from './logging';
export * from './observability';
export * from './streaming.module';
export * from './ops-server';

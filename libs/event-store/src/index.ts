export * from './event-store.port';
export * from './fence';
export * from './resubscribe';
export * from './resilient.event-store';
export * from './sqlite.event-store';
export * from './kurrentdb.event-store';

export * from './event-store.port';
export * from './sqlite.event-store';
export * from './kurrentdb.event-store';

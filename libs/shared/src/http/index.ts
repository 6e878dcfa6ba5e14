export * from './all-exceptions.filter';
export * from './request-context';
export * from './push.port';
export * from './same-user';
export * from './quota';
export * from './idempotency';
export * from './same-secret';
export * from './body-depth';

export * from './errors';
export * from './command-context';
export * from './decider';
export * from './event-sourced.repository';
export * from './crypto/keyring';
export * from './market';
export * from './config';

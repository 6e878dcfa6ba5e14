/**
 * Server plumbing shared by the contexts, framework-free but not pure: running a command against the
 * event store (loads its drivers), the keyring (file system), the configuration (environment).
 */
export * from './event-sourced.repository';
export * from './crypto/keyring';
export * from './config';
export * from './quota/allotment.ledger';
export * from './ops-meter';

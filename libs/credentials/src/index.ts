/** The credentials context without Nest: domain, commands, vault, key store, projection. Nest wiring: ./nest.ts. */
export * from './credential-list.projection';
export * from './application/credential.commands';
export * from './crypto/key-store.port';
export * from './crypto/sqlite.key-store';
export * from './crypto/credential-vault';
export * from './domain/credential.decider';
export * from './domain/credential.events';
export * from './domain/key-use.decider';
export * from './domain/credential.rules';
export * from './domain/secret-value';
export * from './exchange-access/exchange-provider.token';
export * from './secret-query.middleware';
export * from './domain/key-permissions.rules';

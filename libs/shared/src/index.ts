/**
 * The pure shared kernel: errors, the decider and command shapes, the command context, what the
 * product trades. No framework, no driver, no I/O: deciders and the dashboard may load it
 * (shared-entries.spec.ts proves it). Server plumbing is `@gridrocket/shared/runtime`, the Nest HTTP
 * layer `@gridrocket/shared/http`, test helpers `@gridrocket/shared/testing/*`.
 */
export * from './errors';
export * from './command-context';
export * from './decider';
export * from './market';
export * from './command';
export * from './revision-tag';
export * from './quota/quota';
export * from './quota/allotment.decider';
export * from './documented-as';
export * from './style-plugins';

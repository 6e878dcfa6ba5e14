/**
 * The browser's view of `@gridrocket/shared`: only the pure parts the shared bot rules need (the
 * market lists, the error types, and documentedAs: a WeakMap naming a rule's JSON type for the API
 * contract), and the plug-in styles' table (style-plugins.ts: the bots context's style registry asks it;
 * no plug-in registers in the browser). The server's index also carries crypto and configuration, which
 * have no place in a bundle.
 */
export * from '../../../libs/shared/src/market';
export * from '../../../libs/shared/src/errors';
export * from '../../../libs/shared/src/documented-as';
export * from '../../../libs/shared/src/style-plugins';

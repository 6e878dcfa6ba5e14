/**
 * The browser's view of `@gridrocket/shared`: only the pure parts the shared bot rules need (the
 * market lists and the error types). The server's index also carries crypto and configuration,
 * which have no place in a bundle.
 */
export * from '../../../libs/shared/src/market';
export * from '../../../libs/shared/src/errors';

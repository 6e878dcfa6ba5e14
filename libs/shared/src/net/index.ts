export * from './outbound-address.rules';
export * from './guarded-request';

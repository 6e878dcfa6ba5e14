export * from './decider-spec';
export * from './until';

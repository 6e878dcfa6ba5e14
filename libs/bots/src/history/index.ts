export * from './history.format';
export * from './bot-state-at';
export * from './auditor.policy';
export * from './auditor.guard';
export * from './history.module';

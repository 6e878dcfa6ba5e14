export * from './trading.module';
export * from './runner/grid-runner';
export * from './runner/grid-runner.service';
export * from './runner/bot-task';
export * from './runner/direct-commands';
export * from './runner/bot-workflow';
export * from './runner/token-bucket';

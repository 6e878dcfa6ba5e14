export * from './trading.module';
export * from './runner/stand-in.runner';

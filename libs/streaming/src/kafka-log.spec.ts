import { logLevel } from 'kafkajs';
import { createLogger } from './logging';
import { KAFKA_LOG_REPEAT_MS, kafkaLogCreator, kafkaLogLevelOf } from './kafka.client';

/** kafkajs's log lines through the app's logger (issue 41): JSON lines at the app's levels, an outage's lines as warnings, once. */
describe("kafkajs's log in the app's log", () => {
  const capture = (level = 'info') => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level, destination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    let t = 1_000_000;
    const log = kafkaLogCreator(logger, () => t)(logLevel.INFO);
    return { lines, log, advance: (ms: number) => (t += ms) };
  };
  const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) => ({
    namespace: 'Connection',
    level,
    label: 'ERROR',
    log: { timestamp: '2026-11-29T06:00:00.000Z', logger: 'kafkajs', message, ...extra },
  });

  it("an outage's thousand reconnection errors are one warning per 30 s, saying how many came", () => {
    const { lines, log, advance } = capture();
    for (let i = 0; i < 1000; i++) log(entry(logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092', clientId: 'gridrocket' }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', kafkajs: 'Connection', broker: '127.0.0.1:9092', msg: 'Connection: Connection error: connect ECONNREFUSED 127.0.0.1:9092' });
    advance(KAFKA_LOG_REPEAT_MS);
    log(entry(logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092' }));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 'warn', repeated: 999 });
  });

  it('an error that is not the broker being away stays an error; info lines follow the app\'s level', () => {
    const { lines, log } = capture('warn');
    log(entry(logLevel.ERROR, 'The group coordinator is not aware of this member', { error: 'KafkaJSProtocolError' }));
    // the coordinator away for a moment (kafkajs retries): a warning
    log(entry(logLevel.ERROR, 'Response GroupCoordinator(key: 10, version: 2)', { error: 'The group coordinator is not available' }));
    log(entry(logLevel.INFO, 'Consumer has joined the group'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['error', 'Connection: The group coordinator is not aware of this member'],
      ['warn', 'Connection: Response GroupCoordinator(key: 10, version: 2)'],
    ]);
    expect(kafkaLogLevelOf('warn')).toBe(logLevel.WARN);
    expect(kafkaLogLevelOf('info')).toBe(logLevel.WARN); // kafkajs's INFO is the app's debug
    expect(kafkaLogLevelOf('debug')).toBe(logLevel.DEBUG);
    expect(kafkaLogLevelOf('silent')).toBe(logLevel.NOTHING);
  });
});

describe('the forwarder failures metric names what failed underneath kafkajs\'s wrappers (issue 41)', () => {
  it('a connection refused through the producer\'s retrier is KafkaJSConnectionError, a request timeout KafkaJSRequestTimeoutError', async () => {
    // kafkajs's own classes, wrapped as its retrier wraps them (src/retry/index.js)
    const { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSNonRetriableError, KafkaJSRequestTimeoutError } = jest.requireActual('kafkajs');
    const wrap = (e: Error & { cause?: Error }) => {
      const exhausted = new KafkaJSNumberOfRetriesExceeded(e, { retryCount: 5, retryTime: 5000, cause: e.cause || e });
      return new KafkaJSNonRetriableError(exhausted, { cause: exhausted.cause || exhausted });
    };
    const { MetricsService } = await import('./metrics.service');
    const metrics = new MetricsService({ defaultMetrics: false });
    metrics.forwarderFailed(wrap(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092' })));
    metrics.forwarderFailed(wrap(new KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 7) timed out', { broker: '127.0.0.1:9092' })));
    const text = await metrics.registry.metrics();
    expect(text).toContain('gridrocket_forwarder_publish_failures_total{error="KafkaJSConnectionError"} 1');
    expect(text).toContain('gridrocket_forwarder_publish_failures_total{error="KafkaJSRequestTimeoutError"} 1');
    expect(text).toContain('gridrocket_forwarder_publish_failures_total{error="KafkaJSNonRetriableError"} 0');
  });
});

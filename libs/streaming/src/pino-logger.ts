import pino, { DestinationStream, Logger } from 'pino';

/* The logger itself, without Nest or Express (logging.ts adds those): the framework-free index (kafka.client.ts) uses it. */
const LEVELS = new Set(['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace']);

/**
 * JSON lines on stdout (pino): `{"level":"info","time":"…","service":"gridrocket",
 * "context":"Projector","correlationId":"…","msg":"…"}`. A line written for a request or a command
 * carries its correlation id, passed with the message (`correlated(msg, id)`, @gridrocket/shared), so
 * a command's log lines and its events share it. (Not through an AsyncLocalStorage: on Node 20 that
 * hooks every promise of the process, about 15 % of the bytes allocated under load; issue 16.)
 */
export function createLogger(options: { level?: string; destination?: DestinationStream; service?: string } = {}): Logger {
  const level = options.level && LEVELS.has(options.level) ? options.level : 'info';
  return pino(
    {
      level,
      base: { service: options.service ?? 'gridrocket', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}

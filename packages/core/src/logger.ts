import winston from 'winston';
import { redact, redactEntry, redactText } from './redact.js';

export type Logger = winston.Logger;

export interface LoggerOptions {
  level?: string;
  /** Fields added to every line, e.g. `{ service: 'router' }`. */
  defaultMeta?: Record<string, unknown>;
  /** Where lines go; defaults to stdout. Tests pass a stream they read back. */
  stream?: NodeJS.WritableStream;
  silent?: boolean;
}

const WINSTON_INTERNAL = new Set(['level', 'message', 'timestamp']);

/** Scrubs message and metadata before any transport sees them. */
const redaction = winston.format((info) => {
  info.message = typeof info.message === 'string' ? redactText(info.message) : redact(info.message);
  for (const key of Object.keys(info)) {
    if (WINSTON_INTERNAL.has(key)) continue;
    info[key] = redactEntry(key, info[key]);
  }
  return info;
});

/**
 * JSON-lines logger. Request-scoped loggers are `logger.child({ request_id })`, so the id is on every line
 * written while serving the request.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  return winston.createLogger({
    level: options.level ?? process.env['LOG_LEVEL'] ?? 'info',
    defaultMeta: options.defaultMeta,
    silent: options.silent ?? false,
    format: winston.format.combine(redaction(), winston.format.timestamp(), winston.format.json()),
    transports: [transport],
  });
}

/** A logger that writes nothing: the default for libraries when the host passes none. */
export function silentLogger(): Logger {
  return createLogger({ silent: true });
}

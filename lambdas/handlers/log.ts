/**
 * Structured JSON logs. Only identifiers, codes and figures go in: never segment content, document
 * values, keys, secrets or stack traces.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const LEVELS: Record<string, number> = { info: 1, warn: 2, error: 3, silent: 4 };

function write(level: string, message: string, fields: LogFields | undefined): void {
  // EDI_LOG_LEVEL: info (default), warn, error or silent.
  if ((LEVELS[level] ?? 1) < (LEVELS[process.env.EDI_LOG_LEVEL ?? 'info'] ?? 1)) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), message, ...fields });
  if (level === 'error' || level === 'warn') process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const jsonLogger: Logger = {
  info: (message, fields) => write('info', message, fields),
  warn: (message, fields) => write('warn', message, fields),
  error: (message, fields) => write('error', message, fields),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

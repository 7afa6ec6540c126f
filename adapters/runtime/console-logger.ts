import type { Logger } from '../../ports/logger.js';

export type LogLevel = 'info' | 'warn' | 'error' | 'silent';
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, silent: 3 };

/** One JSON line per entry on stderr. */
export class ConsoleLogger implements Logger {
  constructor(private readonly level: LogLevel = 'info') {}

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields);
  }

  private write(level: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>): void {
    if (RANK[level] < RANK[this.level]) return;
    process.stderr.write(`${JSON.stringify({ level, at: new Date().toISOString(), message, ...fields })}\n`);
  }
}

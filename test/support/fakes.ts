import type { Logger } from '../../ports/logger.js';
import type { Ids } from '../../ports/ids.js';
import { ID_PREFIXES, type IdKind } from '../../domain/ids.js';

/** A logger that remembers what it was told, for assertions about logging. */
export class RecordingLogger implements Logger {
  readonly entries: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];

  info(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: 'info', message, fields });
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: 'warn', message, fields });
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.entries.push({ level: 'error', message, fields });
  }

  text(): string {
    return JSON.stringify(this.entries);
  }
}

/** Sequential ids (`thr_0000000001`, ...) so tests can predict them. */
export class SequentialIds implements Ids {
  private n = 0;

  mint(kind: IdKind): string {
    this.n += 1;
    return `${ID_PREFIXES[kind]}${String(this.n).padStart(10, '0')}`;
  }
}

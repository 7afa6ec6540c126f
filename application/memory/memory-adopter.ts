import type { SessionAdopter } from '../identity/session-adopter.js';
import type { MemoryBook } from './memory-book.js';

/** Moves an anonymous session's memories to the subject it signed in as. */
export class MemoryAdopter implements SessionAdopter {
  readonly family = 'memory';

  constructor(private readonly book: MemoryBook) {}

  async adopt(fromSubject: string, toSubject: string): Promise<void> {
    for (const { memory } of await this.book.everyOf(fromSubject)) await this.book.save(memory.movedTo(toSubject));
  }
}

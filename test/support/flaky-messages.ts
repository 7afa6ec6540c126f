import { Unavailable } from '../../domain/errors.js';
import type { UiMessage } from '../../domain/threads/ui-message.js';
import type { RecordSet } from '../../ports/store.js';

/**
 * A thread's message records as the store serves them, except that saving an assistant message
 * fails (as a database that is away does: Unavailable) for the next `failing` attempts, or for as
 * long as `failing` is Infinity. `attempts` counts the failed ones.
 */
export class FlakyMessages {
  failing = 0;
  attempts = 0;

  wrap(records: RecordSet<UiMessage>): RecordSet<UiMessage> {
    return {
      ...records,
      get: (id) => records.get(id),
      delete: (id) => records.delete(id),
      list: (query) => records.list(query),
      put: async (input) => {
        if (input.data.role === 'assistant' && this.failing > 0) {
          this.failing -= 1;
          this.attempts += 1;
          throw new Unavailable('The store database cannot be reached');
        }
        return records.put(input);
      },
    };
  }
}

import type { MemoryPrimitives } from '../../domain/memory/memory.js';
import type { Store } from '../../ports/store.js';
import type { MemoryOrgOf } from '../../ports/memory-org.js';
import type { ToolDefinition } from '../../ports/tool-registry.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { StoreAuditLog } from '../../adapters/audit/store-audit-log.js';
import { AuditTrail } from '../../application/audit/audit-trail.js';
import { MemoryBook } from '../../application/memory/memory-book.js';
import { MemoryScopes } from '../../application/memory/memory-scopes.js';
import { SaveMemory } from '../../application/memory/save-memory.js';
import { ListMemories } from '../../application/memory/list-memories.js';
import { GetMemory } from '../../application/memory/get-memory.js';
import { EditMemory } from '../../application/memory/edit-memory.js';
import { ForgetMemory } from '../../application/memory/forget-memory.js';
import { ExportMemories } from '../../application/memory/export-memories.js';
import { SearchMemories } from '../../application/memory/search-memories.js';
import { RecallMemories } from '../../application/memory/recall-memories.js';
import { memoryTools } from '../../application/memory/memory-tools.js';
import { ManualClock } from './manual-clock.js';
import { RecordingLogger } from './fakes.js';
import { UlidIds } from '../../adapters/runtime/ulid-ids.js';

export interface MemoryHarnessOptions {
  readonly store?: Store;
  readonly clock?: ManualClock;
  readonly maxPerPerson?: number;
  readonly recallTokens?: number;
  readonly org?: MemoryOrgOf;
}

/** The memory family's use cases, tools and recall over one store, as memory-module.ts wires them. */
export function memoryHarness(options: MemoryHarnessOptions = {}) {
  const clock = options.clock ?? new ManualClock('2026-06-01T12:00:00.000Z');
  const store = options.store ?? new MemoryStore({ clock });
  const ids = new UlidIds();
  const logger = new RecordingLogger();
  const audit = new AuditTrail({ sink: new StoreAuditLog(store), ids, clock, logger });
  const book = new MemoryBook(store.records<MemoryPrimitives>('memories'));
  const scopes = new MemoryScopes(options.org);
  const save = new SaveMemory({ book, scopes, ids, clock, audit, maxPerPerson: options.maxPerPerson ?? 200 });
  const forget = new ForgetMemory(book, scopes, audit);
  const search = new SearchMemories(book, scopes);
  const tools: ToolDefinition[] = memoryTools({ save, search, forget });
  return {
    store,
    clock,
    book,
    save,
    list: new ListMemories(book, scopes),
    get: new GetMemory(book, scopes),
    edit: new EditMemory(book, scopes, clock, audit),
    forget,
    exportAll: new ExportMemories(book, scopes, clock),
    search,
    recall: new RecallMemories(book, scopes, options.recallTokens ?? 400),
    tools,
  };
}

import { get, porterModule, recordsOf, TOKENS } from '../tokens.js';
import { DELETION_TOKENS } from './deletions-tokens.js';
import { MEMORY_TOKENS } from './memory-tokens.js';
import type { MemoryPrimitives } from '../../domain/memory/memory.js';
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
import { MemoryAdopter } from '../../application/memory/memory-adopter.js';
import { memoryTools } from '../../application/memory/memory-tools.js';
import { DEFAULT_MAX_MEMORIES_PER_PERSON } from '../../application/memory/memory-settings.js';
import { memoryRoutes } from '../../adapters/http/routes/memory-routes.js';
import type { PorterConfig } from '../config/config-schema.js';

/**
 * Memory: each person's memories, their routes (always mounted, so a person can see, export and
 * delete what was kept even after the host turned memory off), and with `memory` on, the agent's
 * memory tools and the recall every turn makes (MEMORY_TOKENS.TurnRecall, read by the agent loop).
 */
export function memoryModule(config: PorterConfig['memory']) {
  return porterModule((bind) => {
    const maxPerPerson = config ? config.maxPerPerson : DEFAULT_MAX_MEMORIES_PER_PERSON;
    bind.singleton(MEMORY_TOKENS.MemoryBook, (ctx) => new MemoryBook(recordsOf<MemoryPrimitives>(ctx, 'memories')));
    bind.singleton(MEMORY_TOKENS.MemoryScopes, () => new MemoryScopes(config ? config.org : undefined));
    const saveMemory = (ctx: Parameters<typeof get>[0]) =>
      new SaveMemory({
        book: get(ctx, MEMORY_TOKENS.MemoryBook),
        scopes: get(ctx, MEMORY_TOKENS.MemoryScopes),
        ids: get(ctx, TOKENS.Ids),
        clock: get(ctx, TOKENS.Clock),
        audit: get(ctx, TOKENS.AuditTrail),
        maxPerPerson,
      });
    bind.singleton(MEMORY_TOKENS.MemoryUseCases, (ctx) => {
      const book = get(ctx, MEMORY_TOKENS.MemoryBook);
      const scopes = get(ctx, MEMORY_TOKENS.MemoryScopes);
      const save = saveMemory(ctx);
      return {
        listMemories: new ListMemories(book, scopes, get(ctx, DELETION_TOKENS.PendingDeletions)),
        getMemory: new GetMemory(book, scopes),
        addMemory: { execute: async ({ principal, text }) => (await save.execute({ principal, text, source: { kind: 'person' } })).memory },
        editMemory: new EditMemory(book, scopes, get(ctx, TOKENS.Clock), get(ctx, TOKENS.AuditTrail)),
        forgetMemory: new ForgetMemory(book, scopes, get(ctx, TOKENS.AuditTrail)),
        exportMemories: new ExportMemories(book, scopes, get(ctx, TOKENS.Clock)),
      };
    });
    bind(TOKENS.WireRoutes).toDynamicValue((ctx) => memoryRoutes(get(ctx, MEMORY_TOKENS.MemoryUseCases)));
    bind(TOKENS.SessionAdopters).toDynamicValue((ctx) => new MemoryAdopter(get(ctx, MEMORY_TOKENS.MemoryBook)));
    if (!config) return;
    bind.singleton(
      MEMORY_TOKENS.TurnRecall,
      (ctx) =>
        new RecallMemories(
          get(ctx, MEMORY_TOKENS.MemoryBook),
          get(ctx, MEMORY_TOKENS.MemoryScopes),
          config.recallTokens,
          get(ctx, DELETION_TOKENS.PendingDeletions),
        ),
    );
    bind.singleton(TOKENS.PorterTools, (ctx) => {
      const book = get(ctx, MEMORY_TOKENS.MemoryBook);
      const scopes = get(ctx, MEMORY_TOKENS.MemoryScopes);
      return memoryTools({
        save: saveMemory(ctx),
        search: new SearchMemories(book, scopes),
        forget: new ForgetMemory(book, scopes, get(ctx, TOKENS.AuditTrail)),
      });
    });
  });
}

import type { GrantPrimitives } from '../../domain/guard/grant.js';
import type { RecordSet } from '../../ports/store.js';
import type { ToolDependentCounts, ToolDependents } from './tool-dependents.js';

/**
 * Active grants depend on their tool: renaming or removing the tool silently voids the standing
 * yes someone gave it. Reads the grant records by their `tool` ref (a read side may skip the domain).
 */
export class GrantDependents implements ToolDependents {
  readonly family = 'grants';

  constructor(private readonly grants: RecordSet<GrantPrimitives>) {}

  async dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts> {
    const byTool: Record<string, number> = {};
    const distinct = new Set<string>();
    for (const tool of tools) {
      let count = 0;
      let cursor: string | null = null;
      do {
        const page = await this.grants.list({ refs: { tool, active: 'yes' }, limit: 500, cursor });
        count += page.items.length;
        for (const item of page.items) distinct.add(item.id);
        cursor = page.nextCursor;
      } while (cursor);
      byTool[tool] = count;
    }
    return { total: distinct.size, byTool };
  }
}

import type { StoredGrant } from '../../domain/guard/grant.js';
import { everyRecord, type RecordSet } from '../../ports/store.js';
import type { ToolDependentCounts, ToolDependents } from './tool-dependents.js';

/**
 * Active grants depend on their tool: renaming or removing the tool silently voids the standing
 * yes someone gave it. Reads the grant records by their `tool` ref (a read side may skip the domain).
 */
export class GrantDependents implements ToolDependents {
  readonly family = 'grants';

  constructor(private readonly grants: RecordSet<StoredGrant>) {}

  async dependentsOf(tools: ReadonlyArray<string>): Promise<ToolDependentCounts> {
    const byTool: Record<string, number> = {};
    const distinct = new Set<string>();
    for (const tool of tools) {
      const grants = await everyRecord(this.grants, { tool, active: 'yes' });
      for (const grant of grants) distinct.add(grant.id);
      byTool[tool] = grants.length;
    }
    return { total: distinct.size, byTool };
  }
}

import { hintsFor } from '../../domain/door/tool-annotations.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { DoorTool } from '../../ports/use-cases/door.js';
import { defined } from '../../domain/defined.js';

/** `tools/list` through the door: every registered tool, annotated from its declared risk. */
export class ListDoorTools implements UseCase<void, ReadonlyArray<DoorTool>> {
  constructor(private readonly tools: ToolRegistry) {}

  async execute(): Promise<ReadonlyArray<DoorTool>> {
    return this.tools.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      hints: hintsFor({
        risk: tool.risk,
        ...defined({ egress: tool.egress, readOnly: tool.readOnly }),
        resolvesRisk: tool.resolveRisk !== undefined,
      }),
    }));
  }
}

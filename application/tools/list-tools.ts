import { RESERVED_TOOL_PREFIX } from '../../domain/apps/app-document.js';
import type { Principal } from '../../domain/principal.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ToolSummary } from '../../ports/use-cases/tools.js';

/**
 * `GET /tools`: the host's tools, for a person picking one (an automation's tools, a chrome's
 * suggestions). Porter's own `porter_*` tools are the agent's and stay out; inputs and code are not
 * shown, only what a person needs to choose.
 */
export class ListTools implements UseCase<{ principal: Principal }, { tools: ReadonlyArray<ToolSummary> }> {
  constructor(private readonly registry: ToolRegistry) {}

  async execute(): Promise<{ tools: ReadonlyArray<ToolSummary> }> {
    const tools = this.registry
      .list()
      .filter((tool) => !RESERVED_TOOL_PREFIX.test(tool.name))
      .map((tool) => ({
        name: tool.name,
        description: tool.description,
        risk: tool.risk,
        egress: tool.egress === true,
        connection: tool.connection ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { tools };
  }
}

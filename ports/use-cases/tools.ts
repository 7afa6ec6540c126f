import type { Risk } from '../../domain/guard/risk.js';
import type { Principal } from '../../domain/principal.js';
import type { UseCase } from '../use-case.js';

/** A tool as a person choosing one sees it: what it does and what it may touch. */
export interface ToolSummary {
  readonly name: string;
  readonly description: string;
  readonly risk: Risk;
  readonly egress: boolean;
  /** The toolkit whose connected account it acts through, if any. */
  readonly connection: string | null;
}

export interface ToolUseCases {
  /** The host's own tools (Porter's `porter_*` tools are the agent's and not listed), by name. */
  readonly listTools: UseCase<{ principal: Principal }, { tools: ReadonlyArray<ToolSummary> }>;
}

import { token } from '../tokens.js';
import type { ToolUseCases } from '../../ports/use-cases/tools.js';

/** The tools' use cases: what tools-module.ts binds. */
export const TOOL_TOKENS = {
  ToolUseCases: token<ToolUseCases>('ToolUseCases'),
};

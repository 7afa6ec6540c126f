import { get, porterModule, TOKENS } from '../tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { TOOL_TOKENS } from './tools-tokens.js';
import { ListTools } from '../../application/tools/list-tools.js';
import { toolRoutes } from '../../adapters/http/routes/tool-routes.js';

/** The host's tools as people choose them (`GET /tools`), read from the guard's registry. */
export const toolsModule = porterModule((bind) => {
  bind.singleton(TOOL_TOKENS.ToolUseCases, (ctx) => ({ listTools: new ListTools(get(ctx, GUARD_TOKENS.ToolRegistry)) }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => toolRoutes(get(ctx, TOOL_TOKENS.ToolUseCases)));
});

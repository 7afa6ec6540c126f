import { get, porterModule, TOKENS } from '../tokens.js';
import { ListTools } from '../../application/tools/list-tools.js';
import { toolRoutes } from '../../adapters/http/routes/tool-routes.js';

/** The host's tools as people choose them (`GET /tools`), read from the guard's registry. */
export const toolsModule = porterModule((bind) => {
  bind.singleton(TOKENS.ToolUseCases, (ctx) => ({ listTools: new ListTools(get(ctx, TOKENS.ToolRegistry)) }));
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => toolRoutes(get(ctx, TOKENS.ToolUseCases)));
});

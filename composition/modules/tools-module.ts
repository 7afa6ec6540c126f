import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { ToolUseCases } from '../../ports/use-cases/tools.js';
import { ListTools } from '../../application/tools/list-tools.js';
import { toolRoutes } from '../../adapters/http/routes/tool-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/** The host's tools as people choose them (`GET /tools`), read from the guard's registry. */
export const toolsModule = new ContainerModule(({ bind }) => {
  bind<ToolUseCases>(TOKENS.ToolUseCases)
    .toDynamicValue((ctx) => ({ listTools: new ListTools(ctx.get(TOKENS.ToolRegistry)) }))
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => toolRoutes(ctx.get(TOKENS.ToolUseCases)));
});

import type { ToolUseCases } from '../../../ports/use-cases/tools.js';
import { ToolList } from '../shapes/tool-shapes.js';
import { json } from '../wire-route.js';
import { principalFamily, type WireRoutes } from '../wire-routes.js';
import { callerRoutes } from './caller-routes.js';

/** The host's tools, as a person picking one sees them. */
export function toolRoutes(tools: ToolUseCases): WireRoutes {
  return principalFamily('Tools', [
    callerRoutes(tools).get('/tools', 'listTools', {
      summary: "List the host's tools",
      description:
        "What each does, its risk, whether it reaches outside and the account it acts through; for choosing an automation's tools.",
      responses: { 200: json("The host's tools.", ToolList) },
    }),
  ]);
}

import { z } from 'zod';
import { useSession } from './session.js';
import { useLoad } from './use-load.js';
import { wire } from './wire.js';

const status = z.object({
  blocks: z.object({
    mcp: z.union([z.string(), z.literal(false)]).optional(),
    connections: z.union([z.string(), z.literal(false)]).optional(),
    apps: z.boolean().optional(),
    automations: z.boolean().optional(),
  }),
});
export type Deployment = z.output<typeof status>;

/** What this deployment has (`GET /status`): whether the MCP door is open, connections are set up… */
export function useDeployment(): Deployment | undefined {
  const { epoch } = useSession();
  return useLoad((signal) => wire('GET', '/status', { schema: status, signal }), [epoch]).data;
}

import { z } from 'zod';

export const ToolSummary = z
  .object({
    name: z.string(),
    description: z.string(),
    risk: z.enum(['read', 'write', 'destructive']),
    egress: z.boolean().describe('It reaches outside the host, so it asks even when it only reads.'),
    connection: z.string().nullable().describe('The toolkit whose connected account it acts through.'),
  })
  .meta({ id: 'ToolSummary' });

export const ToolList = z
  .object({ tools: z.array(ToolSummary) })
  .meta({ id: 'ToolList', description: "The host's tools, by name (Porter's own `porter_*` tools are not listed)." });

/** How much a tool call can change: reads run freely, writes and destructive actions ask. */
export type Risk = 'read' | 'write' | 'destructive';

/** Where a call comes from. */
export type Venue = 'chat' | 'app' | 'automation' | 'mcp';

/** Whether the person is there to answer (chat) or not (automations, the door acting for them). */
export type Presence = 'present' | 'away';

export const RISKS: ReadonlyArray<Risk> = ['read', 'write', 'destructive'];
export const VENUES: ReadonlyArray<Venue> = ['chat', 'app', 'automation', 'mcp'];

/** The risk a call carries once resolved at call time, and whether it reaches outside. */
export interface EffectiveRisk {
  readonly risk: Risk;
  readonly egress: boolean;
}

/** Host writes, destructive actions and egress ask; reads that stay inside run. */
export function asksByDefault({ risk, egress }: EffectiveRisk): boolean {
  return risk !== 'read' || egress;
}

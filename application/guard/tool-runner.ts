import { DomainError } from '../../domain/errors.js';
import type { RegisteredTool } from '../../ports/tool-registry.js';
import type { Egress } from '../../ports/egress.js';
import type { Authority } from './act-as-seam.js';
import { placeOf, type CallSite } from './call-site.js';
import type { HostAccess } from './host-access.js';
import type { ToolConnections } from '../connections/connection-gate.js';
import { defined } from '../../domain/defined.js';

export interface ToolRun extends CallSite {
  readonly tool: RegisteredTool;
  /** The input as the tool's schema parsed it. */
  readonly input: unknown;
  readonly authority: Authority | null;
}

export type ToolOutcome =
  | { readonly ok: true; readonly output: unknown }
  /** `reason`: the domain error's own (`connection-required`), for a caller that answers it with a way out. */
  | { readonly ok: false; readonly error: string; readonly code?: string; readonly reason?: string };

/** Runs one tool that the guard has let through, with its context; a throw becomes an outcome. */
export class ToolRunner {
  constructor(
    private readonly hostAccess: HostAccess,
    /** Hands tools that declare `connection` the caller's account (without a broker: ConnectionsNotConfigured). */
    private readonly connections: ToolConnections,
    /** What `context.fetch` goes through: the egress guard. */
    private readonly egress: Egress,
  ) {}

  async run(run: ToolRun): Promise<ToolOutcome> {
    try {
      const hostFetch = await this.hostAccess.prepare({
        principal: run.principal,
        venue: run.venue,
        presence: run.presence,
        tool: run.tool.name,
        authority: run.authority,
        credentials: run.credentials,
      });
      const connection = run.tool.connection ? await this.connectionFor(run, run.tool.connection) : null;
      const output = await run.tool.execute(run.input, {
        principal: run.principal,
        ...placeOf(run),
        toolCallId: run.toolCallId,
        signal: run.signal,
        abortSignal: run.signal,
        messages: [],
        context: undefined,
        hostFetch,
        fetch: (input, init) => this.reachOut(input, init, run.signal),
        ...defined({ writeData: run.writeData, cite: run.cite, connection: connection || undefined }),
      });
      return { ok: true, output: output ?? null };
    } catch (error) {
      if (error instanceof DomainError) {
        const reason = error.details?.reason;
        return {
          ok: false,
          error: error.message,
          code: error.code,
          ...defined({ reason: typeof reason === 'string' ? reason : undefined }),
        };
      }
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The guarded fetch, also aborted when the call is (its own signal, if any, still counts). */
  private async reachOut(input: string | URL | Request, init: RequestInit | undefined, callSignal: AbortSignal): Promise<Response> {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    return this.egress.fetch(input, { ...init, signal: own ? AbortSignal.any([own, callSignal]) : callSignal });
  }

  private connectionFor(run: ToolRun, toolkit: string) {
    return this.connections.open({
      principal: run.principal,
      toolkit,
      tool: run.tool.name,
      toolCallId: run.toolCallId,
      ...defined({ writeData: run.writeData }),
    });
  }
}

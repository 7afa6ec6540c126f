import type { Principal } from '../../domain/principal.js';
import type { Presence, Venue } from '../../domain/guard/risk.js';
import type { HostApi } from '../../ports/host-api.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { ActAsSeam, Authority } from './act-as-seam.js';

/** The person's own credentials on a present request, as the wire received them. */
export interface PresentCredentials {
  readonly cookie?: string;
  readonly authorization?: string;
}

export interface CallerOfHost {
  readonly principal: Principal;
  readonly venue: Venue;
  readonly presence: Presence;
  readonly tool: string;
  readonly authority: Authority | null;
  readonly credentials?: PresentCredentials;
}

export type HostFetch = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * How a tool reaches the host's own API. Present (chat, apps): the person's credentials are
 * forwarded, and only to PORTER_BASE_URL; without it forwarding is off and one
 * `present-credentials-not-forwarded` event is audited per boot. Away or through the door: act-as
 * material, never the inbound bearer.
 */
export class HostAccess {
  private notForwardedAudited = false;

  constructor(
    /** Without PORTER_BASE_URL, the null host API (NotImplemented). */
    private readonly host: HostApi,
    private readonly seam: ActAsSeam,
    private readonly audit: AuditTrail,
  ) {}

  /** Called before the tool runs: refusals (impersonation) happen here, before any outbound call. */
  async prepare(caller: CallerOfHost): Promise<HostFetch> {
    const actingAs = caller.presence === 'away' || caller.venue === 'mcp';
    if (actingAs) {
      await this.seam.check(caller.principal, caller.authority, caller.tool);
      return async (path, init = {}) => {
        const material = await this.seam.materialFor(caller.principal, caller.authority, caller.tool);
        return this.host.fetch(path, withHeaders(init, material.headers));
      };
    }
    const credentials = presentHeaders(caller.credentials);
    if (!this.host.forwardsCredentials && Object.keys(credentials).length > 0) await this.auditNotForwarded(caller.principal);
    return async (path, init = {}) => this.host.fetch(path, withHeaders(init, credentials));
  }

  private async auditNotForwarded(principal: Principal): Promise<void> {
    if (this.notForwardedAudited) return;
    this.notForwardedAudited = true;
    await this.audit.record({
      subject: principal.subject,
      action: 'present.credentials',
      outcome: 'present-credentials-not-forwarded',
      details: { reason: 'PORTER_BASE_URL is not set' },
    });
  }
}

function presentHeaders(credentials: PresentCredentials | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (credentials?.cookie) headers.cookie = credentials.cookie;
  if (credentials?.authorization) headers.authorization = credentials.authorization;
  return headers;
}

function withHeaders(init: RequestInit, extra: Readonly<Record<string, string>>): RequestInit {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return { ...init, headers };
}

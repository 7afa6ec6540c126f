import { ActAsSubjectMismatch, ACT_AS_SUBJECT_MISMATCH } from '../../domain/guard/act-as.js';
import { NotImplemented } from '../../domain/errors.js';
import type { Principal } from '../../domain/principal.js';
import type { ActAsMaterial, ActAsPreset } from '../../ports/act-as.js';
import type { Clock } from '../../ports/clock.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { defined } from '../../domain/defined.js';

/** Material is reused until this long before it expires, so it never expires in flight. */
export const ACT_AS_SAFETY_MARGIN_MS = 30_000;

/** Whose permission a call runs under: the grant or approval that let it through. */
export interface Authority {
  readonly subject: string;
  readonly grantId?: string;
  readonly approvalId?: string;
}

/**
 * The one door through which Porter acts as a user. Every preset passes the impersonation guard
 * first: material is minted only for the principal the authority belongs to. Minted material is
 * cached until its expiry minus a safety margin, keyed by the preset's secret fingerprint, so a
 * rotated secret stops the old material at once.
 */
export class ActAsSeam {
  private readonly cache = new Map<string, ActAsMaterial>();

  constructor(
    private readonly preset: ActAsPreset | null,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  get configured(): boolean {
    return this.preset !== null;
  }

  /** Fails closed, audited, when the authority belongs to someone other than the principal. */
  async check(principal: Principal, authority: Authority | null, tool: string): Promise<void> {
    if (!authority || authority.subject === principal.subject) return;
    await this.audit.record({
      subject: principal.subject,
      action: 'act-as.refused',
      outcome: ACT_AS_SUBJECT_MISMATCH,
      details: {
        tool,
        ...defined({ grantId: authority.grantId || undefined, approvalId: authority.approvalId || undefined }),
      },
    });
    throw new ActAsSubjectMismatch();
  }

  async materialFor(principal: Principal, authority: Authority | null, tool: string): Promise<ActAsMaterial> {
    await this.check(principal, authority, tool);
    if (!this.preset) throw new NotImplemented('act-as is not configured: set the `actAs` option so Porter can call the host as a user');
    const key = `${this.preset.fingerprint}\u0000${principal.subject}`;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt - ACT_AS_SAFETY_MARGIN_MS > this.clock.now().getTime()) return cached;
    this.dropStale();
    const material = await this.preset.mint(principal);
    this.cache.set(key, material);
    return material;
  }

  private dropStale(): void {
    const now = this.clock.now().getTime();
    for (const [key, material] of this.cache) if (material.expiresAt - ACT_AS_SAFETY_MARGIN_MS <= now) this.cache.delete(key);
    if (this.preset) for (const key of this.cache.keys()) if (!key.startsWith(`${this.preset.fingerprint}\u0000`)) this.cache.delete(key);
  }
}

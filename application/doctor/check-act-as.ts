import type { ActAsPreset } from '../../ports/act-as.js';
import type { PrincipalResolver } from '../../ports/principal-resolver.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ActAsCheck } from '../../ports/use-cases/doctor.js';
import type { SyntheticRequestFactory } from '../../ports/wire-request.js';

/**
 * Mints act-as material for a test subject, lets the preset show it as the host would see it,
 * and asks the host's own principal resolver whether it accepts it as that subject.
 */
export class CheckActAs implements UseCase<{ subject?: string }, ActAsCheck> {
  constructor(
    private readonly preset: ActAsPreset | null,
    private readonly resolve: PrincipalResolver,
    private readonly synthesize: SyntheticRequestFactory,
    private readonly mount: string,
  ) {}

  async execute(input: { subject?: string }): Promise<ActAsCheck> {
    const subject = input.subject ?? 'porter-doctor';
    const result = { configured: this.preset !== null, minted: false, accepted: false, subjectMatches: false };
    if (!this.preset) return result;
    try {
      const material = await this.preset.mint({ subject, kind: 'user' });
      result.minted = true;
      const request = await this.preset.asHostSees(
        this.synthesize({ method: 'GET', path: `${this.mount}/status`, headers: { ...material.headers } }),
      );
      const principal = await this.resolve(request);
      result.accepted = principal !== null;
      result.subjectMatches = principal?.subject === subject;
    } catch {
      // a preset or resolver that throws has not accepted the material
    }
    return result;
  }
}

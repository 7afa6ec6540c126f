import type { UseCase } from '../../ports/use-case.js';
import type { WebhookSources } from '../../ports/webhook-verifier.js';
import type { WebhookRefusals } from './webhook-refusals.js';

/** Before reading a body: a source nobody registered is refused as an unverifiable delivery. */
export class AdmitSource implements UseCase<{ source: string }, void> {
  constructor(
    private readonly sources: WebhookSources,
    private readonly refusals: WebhookRefusals,
  ) {}

  async execute(input: { source: string }): Promise<void> {
    if (!this.sources.get(input.source)) throw await this.refusals.refuse(input.source, 'unknown-source');
  }
}

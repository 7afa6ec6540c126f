import type { UseCase } from '../../ports/use-case.js';
import type { WebhookRefusals } from './webhook-refusals.js';

/** A body over the cap was not read to its end; the refusal is audited like any other. */
export class RefuseOversize implements UseCase<{ source: string }, void> {
  constructor(private readonly refusals: WebhookRefusals) {}

  async execute(input: { source: string }): Promise<void> {
    await this.refusals.refuse(input.source, 'too-large');
  }
}

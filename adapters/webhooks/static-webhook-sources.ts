import type { WebhookSources, WebhookVerifier } from '../../ports/webhook-verifier.js';

/** The sources registered at wiring time; nothing is added later. */
export class StaticWebhookSources implements WebhookSources {
  private readonly verifiers: ReadonlyMap<string, WebhookVerifier>;

  constructor(verifiers: Readonly<Record<string, WebhookVerifier>>) {
    this.verifiers = new Map(Object.entries(verifiers));
  }

  get(source: string): WebhookVerifier | null {
    return this.verifiers.get(source) ?? null;
  }

  names(): ReadonlyArray<string> {
    return [...this.verifiers.keys()];
  }
}

import type { NotifyTarget } from '../../domain/automations/automation.js';
import { InvalidInput } from '../../domain/errors.js';
import type { SecretBox, WebhookSender } from '../../ports/webhook-sender.js';

/**
 * Sets where an automation's completion webhooks go. The URL must be one Porter would send to
 * (http or https, and an address the egress guard lets through: never loopback or private in
 * production). A fresh `whsec_` secret is minted every time it is set: the caller is shown it once,
 * and the automation keeps it only sealed, bound to the automation.
 */
export class NotifyTargets {
  constructor(
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
  ) {}

  async set(automationId: string, url: string, at: string): Promise<{ target: NotifyTarget; secret: string }> {
    const refusal = await this.sender.refusal(url);
    if (refusal) throw new InvalidInput(`The automation is not valid: notify.url: ${refusal}`, [{ path: 'notify.url', message: refusal }]);
    const secret = this.sender.mintSecret();
    return { target: { url, sealedSecret: this.secrets.seal(secret, automationId), setAt: at }, secret };
  }
}

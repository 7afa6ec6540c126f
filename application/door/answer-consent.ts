import { AuthorizationCode } from '../../domain/door/authorization-code.js';
import type { Clock } from '../../ports/clock.js';
import type { DoorSecrets } from '../../ports/door-secrets.js';
import type { UseCase } from '../../ports/use-case.js';
import type { AuthorizationStep, ConsentAnswer } from '../../ports/use-cases/door.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { AuthorizationCodeBook } from './code-book.js';
import type { DoorConsentBook } from './consent-book.js';
import type { DoorSettings } from './door-settings.js';
import type { PendingConsentBook } from './pending-consent-book.js';
import { redirectBack } from './redirect-back.js';

const EXPIRED = 'This consent page has expired or was already answered; start again from your MCP client';

/** What AnswerConsent is built from. */
export interface AnswerConsentDeps {
  readonly pending: PendingConsentBook;
  readonly consents: DoorConsentBook;
  readonly codes: AuthorizationCodeBook;
  readonly secrets: DoorSecrets;
  readonly settings: DoorSettings;
  readonly clock: Clock;
  readonly audit: AuditTrail;
}

/**
 * `POST {wire}/mcp/authorize`: the person's answer on the consent page. Only the person the page
 * was shown to can answer it, once. A yes records (or reuses) their consent for this client and
 * sends a one-time code back; a no sends `access_denied`.
 */
export class AnswerConsent implements UseCase<ConsentAnswer, AuthorizationStep> {
  constructor(private readonly deps: AnswerConsentDeps) {}

  async execute(answer: ConsentAnswer): Promise<AuthorizationStep> {
    const now = this.deps.clock.now();
    const loaded = await this.deps.pending.find(this.deps.secrets.digest(answer.handle));
    if (!loaded || !answer.signedIn || !loaded.pending.answerableBy(answer.signedIn.subject, now.toISOString())) {
      return { kind: 'refuse', problem: { error: 'invalid_request', description: EXPIRED } };
    }
    if (!(await this.deps.pending.consume(loaded))) return { kind: 'refuse', problem: { error: 'invalid_request', description: EXPIRED } };

    const { ask } = loaded.pending;
    const subject = answer.signedIn.subject;
    if (!answer.approve) {
      await this.deps.audit.record({ subject, action: 'door.consent', outcome: 'denied', details: { clientId: ask.clientId } });
      return {
        kind: 'redirect',
        location: redirectBack(ask.redirectUri, {
          error: 'access_denied',
          error_description: 'The person declined',
          state: ask.state,
          iss: answer.site.issuer,
        }),
      };
    }

    const consent = await this.deps.consents.ensure(subject, ask.clientId, ask.scope, now.toISOString());
    const code = this.deps.secrets.mint();
    await this.deps.codes.save(
      AuthorizationCode.issue({
        id: this.deps.secrets.digest(code),
        ask,
        subject,
        consentId: consent.id,
        evidence: consent.evidence,
        issuedAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + this.deps.settings.codeTtlSeconds * 1000).toISOString(),
      }),
    );
    await this.deps.audit.record({
      subject,
      action: 'door.consent',
      outcome: 'granted',
      details: { clientId: ask.clientId, scope: ask.scope },
    });
    return { kind: 'redirect', location: redirectBack(ask.redirectUri, { code, state: ask.state, iss: answer.site.issuer }) };
  }
}

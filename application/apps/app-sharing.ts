import { withAdmittedScope } from '../../domain/apps/app-audience.js';
import type { AppDocument } from '../../domain/apps/app-document.js';
import { isAnonymousSubject, type Principal } from '../../domain/principal.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import type { Logger } from '../../ports/logger.js';

/**
 * Gives a supplied document the audience its person may give it (see `admittedScope`), asking the
 * host's `canShareApps` only when the document asks to be shared by someone signed in. A rule
 * that throws counts as a no: the app stays the owner's.
 */
export class AppSharing {
  constructor(
    /** The host's rule; a host that gave none is the rule that nobody may share. */
    private readonly canShare: CanShareApps,
    private readonly logger: Logger,
  ) {}

  async admit(principal: Principal, document: AppDocument): Promise<AppDocument> {
    const anonymous = principal.anonymous === true || isAnonymousSubject(principal.subject);
    const asks = document.scope === 'shared' && !anonymous;
    return withAdmittedScope(document, { anonymous, mayShare: asks && (await this.mayShare(principal)) });
  }

  private async mayShare(principal: Principal): Promise<boolean> {
    try {
      return (await this.canShare(principal)) === true;
    } catch (error) {
      this.logger.warn('canShareApps threw; the app is kept owner-scoped', {
        cause: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  }
}

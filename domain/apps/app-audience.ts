import type { AppDocument, AppScope } from './app-document.js';

/** What the host's rule says about the person storing a supplied document. */
export interface Sharer {
  /** An anonymous session never shares, whatever the host says. */
  readonly anonymous: boolean;
  /** The host's `canShareApps(principal)` answer; false when the host set no rule. */
  readonly mayShare: boolean;
}

/**
 * Who may read an app made from a document someone supplied (an import, a generated app, a fork of
 * a host component). `shared` lets anyone signed in who has the id open it and read its records,
 * so the document's asking is not enough: it takes a person the host lets share. Everyone else's
 * app is owner-scoped, whatever the document says.
 */
export function admittedScope(requested: AppScope, sharer: Sharer): AppScope {
  return requested === 'shared' && sharer.mayShare && !sharer.anonymous ? 'shared' : 'owner';
}

/** The document with the audience its sharer is allowed. */
export function withAdmittedScope(document: AppDocument, sharer: Sharer): AppDocument {
  const scope = admittedScope(document.scope, sharer);
  return scope === document.scope ? document : { ...document, scope };
}

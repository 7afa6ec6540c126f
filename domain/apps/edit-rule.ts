import type { Risk } from '../guard/risk.js';
import { fnRefs, type AppDocument } from './app-document.js';

/** `tree`: the edit changes only the tree; `server`: it needs server code (a served app's). */
export type EditKind = 'tree' | 'server';

/**
 * Words that mean the instruction needs code running on a server. Erring towards `server` only
 * costs an approval card; erring towards `tree` would skip one, and the output check below still
 * fails such an edit closed.
 */
const SERVER_WORDS =
  /\b(server|servers|backend|back-end|api|apis|endpoint|endpoints|fn|function|functions|webhook|webhooks|cron|schedule|scheduled|database|sql|fetch|http|https|request|requests|email|emails|secret|secrets|token|tokens|script|scripts|node|npm|proxy|server\.js|start\.sh)\b|fn:/i;

export function classifyEdit(instruction: string): EditKind {
  return SERVER_WORDS.test(instruction) ? 'server' : 'tree';
}

/**
 * The guard's call-time rule for porter_apps_edit: read-class only when the app is owner-scoped,
 * is a tree app and the instruction needs no server code; otherwise a write, which asks.
 */
export function editRisk(app: Pick<AppDocument, 'scope' | 'ui'> | null, instruction: string): Risk {
  if (!app) return 'write';
  return app.scope === 'owner' && app.ui === 'tree' && classifyEdit(instruction) === 'tree' ? 'read' : 'write';
}

/** Porter_apps_create is always read-class: a new app changes nothing that exists. */
export const CREATE_RISK: Risk = 'read';

/** True when `after` carries server code `before` did not: changed server files or new `fn:` calls. */
export function emitsServerCode(before: AppDocument, after: AppDocument): boolean {
  const was = before.server?.files ?? {};
  const now = after.server?.files ?? {};
  const paths = new Set([...Object.keys(was), ...Object.keys(now)]);
  for (const path of paths) if (was[path] !== now[path]) return true;
  const known = new Set(fnRefs(before));
  return fnRefs(after).some((name) => !known.has(name));
}

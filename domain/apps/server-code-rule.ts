import { Forbidden } from '../errors.js';
import { isAnonymousSubject, type Principal } from '../principal.js';

/**
 * Server code runs on the host's machine (in its sandbox), so it needs someone who signed in:
 * an anonymous session may neither graduate an app nor bring server code in with an import.
 */
export class SignInToRunServerCode extends Forbidden {
  constructor(what: 'graduate' | 'import') {
    super(
      what === 'graduate'
        ? 'Sign in to graduate an app: a served app runs its own server code'
        : 'Sign in to import an app with server code (app/server.js, start.sh or other files under app/)',
      { reason: 'sign-in-required' },
    );
  }
}

export function admitServerCode(principal: Principal, what: 'graduate' | 'import'): void {
  if (principal.anonymous === true || isAnonymousSubject(principal.subject)) throw new SignInToRunServerCode(what);
}

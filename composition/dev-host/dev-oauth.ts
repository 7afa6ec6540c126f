import type { PorterOptions } from '../config/porter-options.js';
import type { Principal } from '../../domain/principal.js';

/** Where the development host lets a person pick a demo name before the consent page (dev-sign-in.ts). */
export const DEV_SIGN_IN_PATH = '/dev/sign-in';
export const DEMO_COOKIE = 'porter_demo_user';
export const DEMO_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

/**
 * The development host's OAuth adapter for the MCP door. The consent page knows the person from the
 * same demo cookie as the wire (`porter_demo_user`) through the door's own `signIn`, never through
 * the host's `principal(req)` (door paths sit outside it); without the cookie the page sends them to
 * a small sign-in form (dev-sign-in.ts). Every demo name is a person, so `principal(subject)`
 * answers for any well-formed name.
 */
export function developmentOAuth(): NonNullable<PorterOptions['oauth']> {
  const person = (subject: string): Principal | null => (DEMO_NAME.test(subject) ? { subject, kind: 'user', name: subject } : null);
  return {
    principal: person,
    signIn: (request) => person((request.cookie(DEMO_COOKIE) ?? '').trim()),
    brand: { name: 'Porter development host' },
    signInUrl: (returnTo) => `${DEV_SIGN_IN_PATH}?returnTo=${encodeURIComponent(returnTo)}`,
  };
}

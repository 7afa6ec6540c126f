import { token } from '../tokens.js';
import type { Sandbox } from '../../ports/sandbox.js';

/** What sandbox-module.ts binds. */
export const SANDBOX_TOKENS = {
  /** The Sandbox port (bound only when a sandbox is configured; graduation answers 501 without one). */
  Sandbox: token<Sandbox>('Sandbox'),
};

import { NotImplemented } from '../../domain/errors.js';
import type { Sandbox, SandboxSession } from '../../ports/sandbox.js';

/**
 * The sandbox of a deployment that has none (the null object): opening one answers
 * NotImplemented, so graduating or serving an app is the deployment's 501 and the core never
 * checks for a missing sandbox. `/status` still says `sandbox: false`.
 */
export class NoSandbox implements Sandbox {
  readonly kind = 'none' as const;

  async open(): Promise<SandboxSession> {
    throw new NotImplemented('No sandbox is configured: graduating and serving apps need one');
  }

  async closeAll(): Promise<void> {}
}

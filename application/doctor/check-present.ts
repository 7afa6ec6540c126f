import type { UseCase } from '../../ports/use-case.js';
import type { PresentCheck } from '../../ports/use-cases/doctor.js';
import type { HostAccess } from '../guard/host-access.js';

/** The path, under the mount, of the echo the synthetic call reaches on the host. */
export const PRESENT_ECHO_PATH = '/doctor/present/echo';

/**
 * Makes the same same-origin call a present tool would, to Porter's own echo route on the host,
 * and reports which of the person's credentials arrived.
 */
export class CheckPresent implements UseCase<{ cookie?: string; authorization?: string }, PresentCheck> {
  constructor(
    private readonly access: HostAccess,
    private readonly baseUrlSet: boolean,
    private readonly mount: string,
  ) {}

  async execute(credentials: { cookie?: string; authorization?: string }): Promise<PresentCheck> {
    const none = { baseUrlSet: this.baseUrlSet, reached: false, authorization: false, cookie: false };
    if (!this.baseUrlSet) return none;
    try {
      const hostFetch = await this.access.prepare({
        principal: { subject: 'porter-doctor', kind: 'user' },
        venue: 'chat',
        presence: 'present',
        tool: 'doctor',
        authority: null,
        credentials,
      });
      const response = await hostFetch(`${this.mount}${PRESENT_ECHO_PATH}`, { method: 'GET' });
      if (!response.ok) return none;
      const echo = (await response.json()) as { authorization?: unknown; cookie?: unknown };
      return { baseUrlSet: true, reached: true, authorization: echo.authorization === true, cookie: echo.cookie === true };
    } catch {
      return none;
    }
  }
}

import type { z } from 'zod';
import { sandboxSettingsSchema, type sandboxSchema, type PorterConfig } from '../config/config-schema.js';
import { PorterConfigError } from '../config/load-config.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Logger } from '../../ports/logger.js';
import { DomainError } from '../../domain/errors.js';
import { LocalSandbox } from '../../adapters/sandbox/local/local-sandbox.js';
import { CloudSandbox } from '../../adapters/sandbox/cloud/cloud-sandbox.js';
import { importOptional } from './optional-package.js';
import { defined } from '../../domain/defined.js';

export type SandboxOption = z.output<typeof sandboxSchema>;

/** Builds the configured sandbox (at boot, so a bad setting fails createPorter and names itself). */
export async function loadSandbox(config: PorterConfig, env: NodeJS.ProcessEnv, logger?: Logger): Promise<Sandbox | null> {
  const chosen = config.sandbox !== undefined ? { option: config.sandbox, source: 'sandbox' } : fromEnvironment(config.development, env);
  if (!chosen || chosen.option === false) return null;
  try {
    return await build(chosen.option, env, logger);
  } catch (error) {
    if (error instanceof DomainError) throw new PorterConfigError([{ option: chosen.source, message: error.message }]);
    throw error;
  }
}

async function build(option: Exclude<SandboxOption, false>, env: NodeJS.ProcessEnv, logger: Logger | undefined): Promise<Sandbox> {
  if (option === 'local') return new LocalSandbox({ root: env.PORTER_SANDBOX_ROOT || undefined, logger });
  if (isSandbox(option)) return option;
  switch (option.kind) {
    case 'local':
      return new LocalSandbox({
        root: option.root ?? (env.PORTER_SANDBOX_ROOT || undefined),
        startTimeoutMs: option.startTimeoutMs,
        containment: option.containment,
        egressIsolation: option.egressIsolation,
        limits: { maxServers: option.maxServers, maxServersPerPerson: option.maxServersPerPerson, idleMs: option.idleStopMs },
        ...defined({ appLimits: option.appLimits, warm: option.warm, runAs: option.runAs }),
        logger,
      });
    case 'e2b': {
      const apiKey = option.apiKey ?? (env.E2B_API_KEY || undefined);
      if (!apiKey) throw new PorterConfigError([{ option: 'sandbox.apiKey', message: 'is required for e2b (or set E2B_API_KEY)' }]);
      // e2b is an optional package: loaded only for this adapter, and named when it is missing.
      const { E2bSandbox } = await importOptional('e2b', 'sandbox', () => import('../../adapters/sandbox/e2b/e2b-sandbox.js'));
      return new E2bSandbox({
        ...option,
        apiKey,
        domain: option.domain ?? (env.E2B_DOMAIN || undefined),
        apiUrl: option.apiUrl ?? (env.E2B_API_URL || undefined),
        sandboxUrl: option.sandboxUrl ?? (env.E2B_SANDBOX_URL || undefined),
      });
    }
    case 'cloud':
      return new CloudSandbox(option);
  }
}

/**
 * `PORTER_SANDBOX` (`local`, `e2b`, `cloud`, `off`) picks explicitly; otherwise `PORTER_SANDBOX_URL`
 * names the cloud service and `E2B_API_KEY` e2b; otherwise development runs apps locally — but not
 * under `NODE_ENV=production`, even with `development: true`: there the local sandbox runs app
 * code on the host only when the host names it (`sandbox: 'local' | {kind: 'local'}` or `PORTER_SANDBOX=local`).
 */
function fromEnvironment(development: boolean, env: NodeJS.ProcessEnv): { option: SandboxOption; source: string } | null {
  const named = env.PORTER_SANDBOX?.trim() || undefined;
  if (named !== undefined && !['local', 'e2b', 'cloud', 'off'].includes(named)) {
    throw new PorterConfigError([
      { option: 'sandbox (from PORTER_SANDBOX)', message: `must be local, e2b, cloud or off (got ${JSON.stringify(named)})` },
    ]);
  }
  if (named === 'off') return { option: false, source: 'sandbox (from PORTER_SANDBOX)' };
  if (named === 'cloud' || (!named && env.PORTER_SANDBOX_URL)) {
    return checked(
      { kind: 'cloud', url: env.PORTER_SANDBOX_URL, token: env.PORTER_SANDBOX_TOKEN },
      'PORTER_SANDBOX_URL / PORTER_SANDBOX_TOKEN',
    );
  }
  if (named === 'e2b' || (!named && env.E2B_API_KEY)) {
    return checked(
      { kind: 'e2b', apiKey: env.E2B_API_KEY || undefined, template: env.PORTER_E2B_TEMPLATE || undefined },
      'E2B_API_KEY / PORTER_E2B_TEMPLATE',
    );
  }
  if (named === 'local' || (development && env.NODE_ENV !== 'production'))
    return { option: { kind: 'local', root: env.PORTER_SANDBOX_ROOT || undefined }, source: 'sandbox (from PORTER_SANDBOX_ROOT)' };
  return null;
}

function checked(candidate: Record<string, unknown>, variables: string): { option: SandboxOption; source: string } {
  const source = `sandbox (from ${variables})`;
  // Checked against the settings branch itself, so the message names the missing or bad field.
  const parsed = sandboxSettingsSchema.safeParse(candidate);
  if (!parsed.success) {
    throw new PorterConfigError(
      parsed.error.issues.map((issue) => ({ option: source, message: `${issue.path.join('.') || 'value'} ${issue.message}` })),
    );
  }
  return { option: parsed.data, source };
}

function isSandbox(option: object): option is Sandbox {
  return typeof (option as Partial<Sandbox>).open === 'function';
}

import type { ContainerModule } from 'inversify';
import { porterModule, TOKENS } from '../tokens.js';
import { SANDBOX_TOKENS } from './sandbox-tokens.js';
import type { Sandbox } from '../../ports/sandbox.js';

/**
 * The sandbox graduated apps run in, as loaded at boot (composition/integrations): bound as
 * SANDBOX_TOKENS.Sandbox only when there is one (served apps answer 501 otherwise); `/status` says which
 * (`sandbox`). Its servers are stopped when Porter closes.
 */
export function sandboxModule(sandbox: Sandbox | null): ContainerModule {
  return porterModule((bind) => {
    bind(TOKENS.StatusBlocks).toConstantValue({ sandbox: !sandbox || sandbox.kind === 'none' ? false : sandbox.kind });
    if (!sandbox) return;
    bind(SANDBOX_TOKENS.Sandbox).toConstantValue(sandbox);
    bind(TOKENS.Background).toConstantValue({ start: async () => undefined, stop: () => sandbox.closeAll() });
  });
}

import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { BackgroundScheduler } from '../../ports/scheduler.js';
import type { StatusBlocks } from '../../ports/use-cases/system.js';

/**
 * The sandbox graduated apps run in, as loaded at boot (composition/integrations): bound as
 * TOKENS.Sandbox only when there is one (served apps answer 501 otherwise); `/status` says which
 * (`sandbox`). Its servers are stopped when Porter closes.
 */
export function sandboxModule(sandbox: Sandbox | null): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<Partial<StatusBlocks>>(TOKENS.StatusBlocks).toConstantValue({ sandbox: sandbox?.kind ?? false });
    if (!sandbox) return;
    bind<Sandbox>(TOKENS.Sandbox).toConstantValue(sandbox);
    bind<BackgroundScheduler>(TOKENS.Background).toConstantValue({ start: async () => undefined, stop: () => sandbox.closeAll() });
  });
}

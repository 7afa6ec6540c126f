import { token } from '../tokens.js';
import type { DeploymentFacts } from '../../application/system/get-status.js';
import type { SystemUseCases } from '../../ports/use-cases/system.js';
import type { IdentityUseCases } from '../../ports/use-cases/identity.js';

/** `/status` and identity: what system-module.ts binds. */
export const SYSTEM_TOKENS = {
  DeploymentFacts: token<DeploymentFacts>('DeploymentFacts'),
  SystemUseCases: token<SystemUseCases>('SystemUseCases'),
  IdentityUseCases: token<IdentityUseCases>('IdentityUseCases'),
};

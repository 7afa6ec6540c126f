import { token } from '../tokens.js';
import type { DevelopmentUseCases } from '../../ports/use-cases/development.js';

/** What development-module.ts binds. */
export const DEVELOPMENT_TOKENS = {
  DevelopmentUseCases: token<DevelopmentUseCases>('DevelopmentUseCases'),
};

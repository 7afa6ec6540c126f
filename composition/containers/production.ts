import type { Container } from 'inversify';
import type { CoreParts } from '../modules/core-module.js';
import { compose, sharedModules } from './compose.js';

/** Production: no development routes; of the doctor routes only base-url answers. */
export function productionContainer(parts: CoreParts): Container {
  return compose(sharedModules(parts));
}

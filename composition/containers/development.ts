import type { Container } from 'inversify';
import type { CoreParts } from '../modules/core-module.js';
import { doctorModule } from '../modules/doctor-module.js';
import { developmentModule } from '../modules/development-module.js';
import { compose, sharedModules } from './compose.js';

/** Development: production plus the development and doctor routes. */
export function developmentContainer(parts: CoreParts): Container {
  return compose([...sharedModules(parts), doctorModule, developmentModule]);
}

import { Container, type ContainerModule } from 'inversify';
import { coreModule, type CoreParts } from '../modules/core-module.js';
import { systemModule } from '../modules/system-module.js';
import { guardModule } from '../modules/guard-module.js';
import { wireModule } from '../modules/wire-module.js';
import { threadsModule } from '../modules/threads-module.js';

/** The modules every composition shares; each family adds its module here. */
export function sharedModules(parts: CoreParts): ContainerModule[] {
  return [coreModule(parts), systemModule, guardModule, threadsModule, wireModule];
}

export function compose(modules: ReadonlyArray<ContainerModule>): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.loadSync(...modules);
  return container;
}

// Inversify reads decorator metadata through the Reflect API this polyfills; loaded before the container.
import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import { coreModule, type CoreParts } from '../modules/core-module.js';
import { systemModule } from '../modules/system-module.js';
import { guardModule } from '../modules/guard-module.js';
import { wireModule } from '../modules/wire-module.js';
import { threadsModule } from '../modules/threads-module.js';
import { connectionsModule } from '../modules/connections-module.js';
import { doorModule } from '../modules/door-module.js';
import { appsModule } from '../modules/apps-module.js';
import { automationsModules } from '../modules/automations-module.js';
import { webhooksModule } from '../modules/webhooks-module.js';
import { schedulerModule } from '../modules/scheduler-module.js';
import { sandboxModule } from '../modules/sandbox-module.js';
import { toolsModule } from '../modules/tools-module.js';
import { usageModule } from '../modules/usage-module.js';
import { memoryModule } from '../modules/memory-module.js';
import { knowledgeModule } from '../modules/knowledge-module.js';
import { filesModule } from '../modules/files-module.js';
import { deletionsModule } from '../modules/deletions-module.js';
import { TOKENS } from '../tokens.js';

/** The modules every composition shares; each family adds its module here. */
export function sharedModules(parts: CoreParts): ContainerModule[] {
  return [
    coreModule(parts),
    systemModule,
    guardModule,
    usageModule,
    toolsModule,
    threadsModule,
    filesModule(parts.integrations.uploadStore),
    connectionsModule,
    memoryModule(parts.config.memory),
    knowledgeModule(parts.config.knowledge, parts.knowledgeVectors ?? null),
    sandboxModule(parts.integrations.sandbox),
    deletionsModule,
    ...(parts.config.apps ? [appsModule] : []),
    ...(parts.config.mcp ? [doorModule] : []),
    ...(parts.config.automations ? [...automationsModules, webhooksModule, schedulerModule(parts.integrations.pgBoss)] : []),
    wireModule,
  ];
}

export function compose(modules: ReadonlyArray<ContainerModule>): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  // Child containers (the door's) are made from the root; bindings reach it through this token.
  container.bind(TOKENS.Container).toConstantValue(container);
  container.load(...modules);
  return container;
}

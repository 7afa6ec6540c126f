import type { AutomationPrimitives } from '../../domain/automations/automation.js';
import type { RecordSet } from '../../ports/store.js';
import { ItemsNamingTools } from '../development/tool-dependents.js';

/**
 * Automations depend on the tools their task names: arming asked standing grants for them, and a
 * run will call them while the owner is away. A development-time read over every automation.
 */
export class AutomationToolDependents extends ItemsNamingTools<AutomationPrimitives> {
  constructor(automations: RecordSet<AutomationPrimitives>) {
    super('automations', automations, (automation) => automation.task.tools ?? []);
  }
}

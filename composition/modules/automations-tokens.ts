import { token } from '../tokens.js';
import type { AutomationBook } from '../../application/automations/automation-book.js';
import type { AutomationUseCases } from '../../ports/use-cases/automations.js';

/** Automations: what automations-module.ts binds. */
export const AUTOMATION_TOKENS = {
  AutomationBook: token<AutomationBook>('AutomationBook'),
  AutomationUseCases: token<AutomationUseCases>('AutomationUseCases'),
};

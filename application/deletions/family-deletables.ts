import { Conflict } from '../../domain/errors.js';
import type { AppsUseCases } from '../../ports/use-cases/apps.js';
import type { AutomationUseCases } from '../../ports/use-cases/automations.js';
import type { ConnectionsUseCases } from '../../ports/use-cases/connections.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';
import type { MemoryUseCases } from '../../ports/use-cases/memory.js';
import type { ThreadUseCases } from '../../ports/use-cases/threads.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import type { GrantBook } from '../guard/grant-book.js';
import type { Deletable } from './deletable.js';

/**
 * Each family's deletion with a way back, made of its own use cases: what names the thing (and
 * proves it is the caller's) and what deletes it for good are the family's usual read and delete.
 */

const LABEL_LIMIT = 80;

function shortLabel(text: string, fallback: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return fallback;
  return line.length > LABEL_LIMIT ? `${line.slice(0, LABEL_LIMIT - 1)}…` : line;
}

export function appDeletable(apps: Pick<AppsUseCases, 'getApp' | 'deleteApp'>): Deletable {
  return {
    kind: 'app',
    describe: async (principal, appId) => shortLabel((await apps.getApp.execute({ principal, appId })).title, 'Untitled app'),
    purge: (principal, appId) => apps.deleteApp.execute({ principal, appId }),
  };
}

export function automationDeletable(automations: Pick<AutomationUseCases, 'getAutomation' | 'deleteAutomation'>): Deletable {
  return {
    kind: 'automation',
    describe: async (principal, automationId) =>
      shortLabel((await automations.getAutomation.execute({ principal, automationId })).name, 'Untitled automation'),
    purge: (principal, automationId) => automations.deleteAutomation.execute({ principal, automationId }),
  };
}

export function threadDeletable(threads: Pick<ThreadUseCases, 'getThread' | 'deleteThread'>): Deletable {
  return {
    kind: 'thread',
    describe: async (principal, threadId) => shortLabel((await threads.getThread.execute({ principal, threadId })).title, 'Untitled chat'),
    purge: (principal, threadId) => threads.deleteThread.execute({ principal, threadId }),
  };
}

export function memoryDeletable(memory: Pick<MemoryUseCases, 'getMemory' | 'forgetMemory'>): Deletable {
  return {
    kind: 'memory',
    describe: async (principal, memoryId) => shortLabel((await memory.getMemory.execute({ principal, memoryId })).text, 'A memory'),
    purge: (principal, memoryId) => memory.forgetMemory.execute({ principal, memoryId }),
  };
}

/** Out of use at once (the connection gate leaves held connections out); the broker is told only at the purge. */
export function connectionDeletable(connections: Pick<ConnectionsUseCases, 'get' | 'remove'>): Deletable {
  return {
    kind: 'connection',
    describe: async (principal, connectionId) => (await connections.get.execute({ principal, connectionId })).toolkit,
    purge: (principal, connectionId) => connections.remove.execute({ principal, connectionId }),
  };
}

/**
 * A grant is revoked at the request, not at the purge: from that moment it covers no call. Undo
 * restores it; the purge has nothing left to do (a revoked grant stays as history).
 */
export function grantDeletable(deps: { grants: GrantBook; revoke: GuardUseCases['revokeGrant']; audit: AuditTrail }): Deletable {
  return {
    kind: 'grant',
    describe: async (principal, grantId) => {
      const { grant } = await deps.grants.ownedBy(principal.subject, grantId);
      // An undo would otherwise bring back a grant revoked long before.
      if (!grant.active) throw new Conflict('This grant is already revoked');
      return grant.toPrimitives().tool;
    },
    suspend: (principal, grantId) => deps.revoke.execute({ principal, grantId }),
    restore: async (principal, grantId) => {
      const { grant } = await deps.grants.ownedBy(principal.subject, grantId);
      const restored = await deps.grants.update(grant.id, (current) => current.restore());
      if (!restored) return;
      await deps.audit.record({
        subject: grant.subject,
        action: 'grant.restored',
        outcome: 'restored',
        details: { grantId: grant.id, tool: grant.toPrimitives().tool },
      });
    },
    purge: async () => {},
  };
}

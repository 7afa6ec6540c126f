import { token } from '../tokens.js';
import type { ExecutionSettings } from '../../application/guard/execute-approved.js';
import type { ToolRegistry } from '../../ports/tool-registry.js';
import type { ApprovalBook } from '../../application/guard/approval-book.js';
import type { GrantBook } from '../../application/guard/grant-book.js';
import type { ActAsSeam } from '../../application/guard/act-as-seam.js';
import type { HostAccess } from '../../application/guard/host-access.js';
import type { ToolRunner } from '../../application/guard/tool-runner.js';
import type { Egress } from '../../ports/egress.js';
import type { ExecuteApproved } from '../../application/guard/execute-approved.js';
import type { GuardCall } from '../../application/guard/guard-call.js';
import type { GuardUseCases } from '../../ports/use-cases/guard.js';

/** The guard's services: what guard-module.ts binds, and what other families and the tests resolve or replace. */
export const GUARD_TOKENS = {
  ToolRegistry: token<ToolRegistry>('ToolRegistry'),
  ApprovalBook: token<ApprovalBook>('ApprovalBook'),
  GrantBook: token<GrantBook>('GrantBook'),
  ActAsSeam: token<ActAsSeam>('ActAsSeam'),
  HostAccess: token<HostAccess>('HostAccess'),
  ToolRunner: token<ToolRunner>('ToolRunner'),
  /** The egress guard's fetch: how Porter reaches out on someone's behalf (tools' `context.fetch`). */
  Egress: token<Egress>('Egress'),
  ExecuteApproved: token<ExecuteApproved>('ExecuteApproved'),
  GuardCall: token<GuardCall>('GuardCall'),
  GuardUseCases: token<GuardUseCases>('GuardUseCases'),
  ExecutionSettings: token<ExecutionSettings>('ExecutionSettings'),
};

import { token } from '../tokens.js';
import type { InstanceLiveness } from '../../ports/liveness.js';
import type { SweepRuns } from '../../application/runs/sweep-runs.js';
import type { RunBook } from '../../application/runs/run-book.js';
import type { ExecuteRun } from '../../application/runs/execute-run.js';
import type { StartRuns } from '../../application/runs/start-runs.js';
import type { RunAdmission } from '../../application/runs/run-admission.js';
import type { RunFollowUp } from '../../application/runs/run-follow-up.js';
import type { RunUseCases } from '../../ports/use-cases/runs.js';

/** This instance's part in runs: its name in leases, and how long leases, requeues and stops take. */
export interface RunSettings {
  readonly holder: string;
  readonly leaseMs: number;
  readonly requeueAfterMs: number;
  readonly stopWaitMs: number;
  readonly stopPollMs: number;
}

/** The runs' services and settings: what runs-module.ts binds, and what a test may replace (the tests' harness plays several instances on one store). */
export const RUN_TOKENS = {
  RunBook: token<RunBook>('RunBook'),
  ExecuteRun: token<ExecuteRun>('ExecuteRun'),
  StartRuns: token<StartRuns>('StartRuns'),
  /** An automation's concurrency slots, decided by the store. */
  RunAdmission: token<RunAdmission>('RunAdmission'),
  /** What follows a run's end: its slot, the next queued run, its completion webhook. */
  RunFollowUp: token<RunFollowUp>('RunFollowUp'),
  RunUseCases: token<RunUseCases>('RunUseCases'),
  RunSettings: token<RunSettings>('RunSettings'),
  /** This instance's liveness mark (PostgreSQL's), or NoInstanceLiveness where leases alone tell a crash. */
  Liveness: token<InstanceLiveness>('InstanceLiveness'),
  /** The crash sweep, shared by the tick and the liveness watch. */
  SweepRuns: token<SweepRuns>('SweepRuns'),
};

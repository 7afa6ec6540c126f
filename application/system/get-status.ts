import type { UseCase } from '../../ports/use-case.js';
import type { StatusBlocks, StatusReport } from '../../ports/use-cases/system.js';

/** What the deployment was composed with; the composition root knows it, the status reports it. */
export interface DeploymentFacts {
  readonly version: string;
  readonly blocks: StatusBlocks;
}

export class GetStatus implements UseCase<void, StatusReport> {
  constructor(private readonly facts: DeploymentFacts) {}

  async execute(): Promise<StatusReport> {
    return { version: this.facts.version, blocks: { ...this.facts.blocks } };
  }
}

import type { Principal } from '../../domain/principal.js';
import type { ConnectionBroker } from '../../ports/connections.js';
import type { UseCase } from '../../ports/use-case.js';
import type { ToolkitList } from '../../ports/use-cases/connections.js';

/** `GET /connections/toolkits`: what the broker is set up to connect, by name, so a person picks rather than types a slug. */
export class ListToolkits implements UseCase<{ principal: Principal }, ToolkitList> {
  constructor(private readonly broker: ConnectionBroker) {}

  async execute(_input: { principal: Principal }): Promise<ToolkitList> {
    this.broker.assertConfigured();
    const toolkits = [...(await this.broker.toolkits())].sort((a, b) => a.name.localeCompare(b.name));
    return { toolkits: toolkits.map(({ toolkit, name }) => ({ toolkit, name })) };
  }
}

import type { Container } from 'inversify';
import { loadConfig } from '../config/load-config.js';
import type { PorterOptions } from '../config/porter-options.js';
import type { Integrations } from '../integrations/load-integrations.js';
import { overridingModule, type Overrides } from '../tokens.js';
import { DOOR_TOKENS } from '../modules/door-tokens.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Model } from '../../ports/model.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Store } from '../../ports/store.js';
import { compose, sharedModules } from './compose.js';
import { doorContainer } from './door.js';

/** The deployment secret of a test composition (production needs one; instances of one deployment share it). */
export const TEST_SECRET = 'a-test-deployment-secret-0123456789abcdef';

/** What a test hands the composition: the parts production opens at boot, already made. */
export interface TestParts {
  /** Options as a host passes them (read with no environment); `telemetry` is off and `secret` a test one unless they say. */
  readonly options?: PorterOptions;
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The model production would load from the configuration (absent: none, 501 where one is needed). */
  readonly model?: Model;
  /** The sandbox production would load (absent: none, graduation answers 501). */
  readonly sandbox?: Sandbox;
}

/**
 * @internal The production composition (the same modules, in the same order) over a test's store,
 * clock, logger and model, with the pieces a test replaces put in place of the modules' own.
 * Porter's own test harnesses build on it, so a new dependency is wired once, in its module.
 * Background work is never started: the test drives the ticks and runs itself. `door` replaces
 * pieces of the MCP door's child container (with `mcp: true`), made here at once.
 */
export function testContainer(
  parts: TestParts,
  override: (overrides: Overrides) => void = () => {},
  door?: (overrides: Overrides) => void,
): Container {
  const config = loadConfig({ telemetry: false, secret: TEST_SECRET, ...parts.options, store: parts.store }, {});
  const integrations: Integrations = {
    model: parts.model ?? null,
    sandbox: parts.sandbox ?? null,
    broker: null,
    pgBoss: null,
    uploadStore: null,
  };
  const { store, clock, logger } = parts;
  const modules = sharedModules({ config, store, clock, logger, env: {}, integrations, knowledgeVectors: null });
  const container = compose([...modules, overridingModule(override)]);
  if (door) {
    const child = doorContainer(container);
    child.load(overridingModule(door));
    container.load(overridingModule(({ replace }) => replace(DOOR_TOKENS.DoorContainer, child)));
  }
  return container;
}

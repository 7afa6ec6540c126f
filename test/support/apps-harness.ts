import type { AppGenerator } from '../../ports/app-generator.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Store } from '../../ports/store.js';
import type { StreamedData, ToolDefinition } from '../../ports/tool-registry.js';
import type { PolicyRule } from '../../domain/guard/policy.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import type { Limits } from '../../domain/usage/budget.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';
import { NoAppGenerator } from '../../adapters/apps/no-app-generator.js';
import type { PorterOptions } from '../../composition/config/porter-options.js';
import { testContainer } from '../../composition/containers/test-container.js';
import { get, TOKENS } from '../../composition/tokens.js';
import { APP_TOKENS } from '../../composition/modules/apps-tokens.js';
import { USAGE_TOKENS } from '../../composition/modules/usage-tokens.js';
import { ada, guardOf } from './guard-harness.js';
import { ManualClock } from './manual-clock.js';
import { RecordingLogger, SequentialIds } from './fakes.js';

export interface AppsHarnessOptions {
  /** Default: the deterministic generator the scripted model uses. */
  generator?: AppGenerator | null;
  sandbox?: Sandbox | null;
  catalog?: PinCatalog | null;
  store?: Store;
  /** The host's tools, registered beside the apps tools (what apps' tool actions run). */
  hostTools?: ToolDefinition[];
  policy?: PolicyRule[];
  /** The host's API (`baseUrl`) that tools reach with the person's credentials; absent, none. */
  baseUrl?: string;
  /** The host's `canShareApps`; default: nobody may share. */
  canShareApps?: CanShareApps;
  /** The people's budgets (`limits`); absent, nothing is metered. */
  limits?: Limits;
  /** The bound on each person's turns in flight, which generations asked outside a turn count toward; absent, none. */
  maxTurnsInFlight?: number;
}

/**
 * The apps use cases and their tools behind the real guard, over the in-memory store: the
 * production modules (testContainer), with the test's generator, catalog, ids and host tools in place.
 */
export function appsHarness(options: AppsHarnessOptions = {}) {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const store = options.store ?? new MemoryStore({ clock });
  const logger = new RecordingLogger();
  const container = testContainer(
    { options: configOf(options), store, clock, logger, ...(options.sandbox ? { sandbox: options.sandbox } : {}) },
    ({ replace, add }) => {
      replace(TOKENS.Ids, new SequentialIds());
      replace(
        APP_TOKENS.AppGenerator,
        options.generator === undefined ? new DeterministicAppGenerator() : (options.generator ?? new NoAppGenerator()),
      );
      if (options.catalog) replace(APP_TOKENS.PinCatalog, options.catalog);
      // The host's tools after the apps tools, as the registry lists the configured ones.
      add(TOKENS.PorterTools, options.hostTools ?? []);
    },
  );
  return {
    ...guardOf(container, { clock, store, logger }),
    book: get(container, APP_TOKENS.AppBook),
    apps: get(container, APP_TOKENS.AppsUseCases),
    meter: options.limits ? get(container, USAGE_TOKENS.UsageMeter) : undefined,
  };
}

/** The harness's options that are the deployment's, as a host passes them. */
function configOf(options: AppsHarnessOptions): PorterOptions {
  return {
    automations: false,
    memory: false,
    knowledge: false,
    limits: options.limits ?? {},
    // The guard's breakers are the guard harness's to test: here an app's own failures reach its tools.
    breakers: false,
    maxTurnsInFlight: options.maxTurnsInFlight ?? false,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.canShareApps ? { canShareApps: options.canShareApps } : {}),
  };
}

/** An apps harness over `sandbox`, and Ada's new app made from `prompt`. */
export async function adasAppOn(sandbox: Sandbox, prompt: string) {
  const h = appsHarness({ sandbox });
  const app = await h.apps.createApp.execute({ principal: ada, prompt });
  return { h, app };
}

/** Collects the data parts a tool streams, as a chat turn would pass them on. */
export function dataParts() {
  const parts: StreamedData[] = [];
  return { parts, writeData: (part: StreamedData) => void parts.push(part) };
}

import type { AppGenerator } from '../../ports/app-generator.js';
import type { PinCatalog } from '../../ports/pin-catalog.js';
import type { Sandbox } from '../../ports/sandbox.js';
import type { Store } from '../../ports/store.js';
import type { AppsUseCases } from '../../ports/use-cases/apps.js';
import type { StreamedData, ToolDefinition } from '../../ports/tool-registry.js';
import type { PolicyRule } from '../../domain/guard/policy.js';
import type { HostApi } from '../../ports/host-api.js';
import type { CanShareApps } from '../../ports/app-sharing.js';
import type { AppPrimitives } from '../../domain/apps/app.js';
import type { ApprovalPrimitives } from '../../domain/guard/approval.js';
import { MemoryStore } from '../../adapters/store/memory/memory-store.js';
import { DeterministicAppGenerator } from '../../adapters/apps/deterministic-app-generator.js';
import { AppBook, type VersionPrimitives } from '../../application/apps/app-book.js';
import { appTools } from '../../application/apps/app-tools.js';
import { ApprovalBook } from '../../application/guard/approval-book.js';
import { assembleApps } from '../../composition/modules/apps-module.js';
import { ada, guardHarness } from './guard-harness.js';
import { ManualClock } from './manual-clock.js';
import { SequentialIds } from './fakes.js';
import type { Limits } from '../../domain/usage/budget.js';
import { usageMeterOn } from './usage-meter.js';
import { NoUsageMeter } from '../../application/usage/no-usage-meter.js';
import type { UsageMeter } from '../../application/usage/usage-meter.js';
import { LeasedTurnSlots, type TurnSlots } from '../../application/usage/turn-slots.js';
import { NoTurnSlots } from '../../application/usage/no-turn-slots.js';
import { TurnsInFlightBook } from '../../application/usage/turns-in-flight-book.js';
import type { TurnsInFlightPrimitives } from '../../domain/usage/turns-in-flight.js';

export interface AppsHarnessOptions {
  /** Default: the deterministic generator the scripted model uses. */
  generator?: AppGenerator | null;
  sandbox?: Sandbox | null;
  catalog?: PinCatalog | null;
  store?: Store;
  /** The host's tools, registered beside the apps tools (what apps' tool actions run). */
  hostTools?: ToolDefinition[];
  policy?: PolicyRule[];
  /** The host's API (PORTER_BASE_URL) that tools reach with the person's credentials. */
  host?: HostApi | null;
  /** The host's `canShareApps`; default: nobody may share. */
  canShareApps?: CanShareApps;
  /** The people's budgets (`limits`); absent, nothing is metered. */
  limits?: Limits;
  /** The bound on each person's turns in flight, which generations asked outside a turn count toward; absent, none. */
  maxTurnsInFlight?: number;
}

/** The apps use cases and their tools behind the real guard, over the in-memory store. */
export function appsHarness(options: AppsHarnessOptions = {}) {
  const store = options.store ?? new MemoryStore({ clock: new ManualClock('2026-06-01T12:00:00.000Z') });
  const book = new AppBook(store.records<AppPrimitives>('apps'), store.records<VersionPrimitives>('app-versions'));
  // The tools need the use cases and the guard needs the tools: the use cases are filled in below.
  const assembled: { apps?: AppsUseCases } = {};
  const late = new Proxy({} as AppsUseCases, { get: (_target, key) => assembled.apps![key as keyof AppsUseCases] });
  const guard = guardHarness({
    tools: [...appTools(late, book), ...(options.hostTools ?? [])],
    store,
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.host ? { host: options.host } : {}),
  });
  const meter: UsageMeter = options.limits ? usageMeterOn(store, guard.clock, options.limits) : new NoUsageMeter();
  const slots: TurnSlots =
    options.maxTurnsInFlight === undefined
      ? new NoTurnSlots()
      : new LeasedTurnSlots({
          book: new TurnsInFlightBook(store.records<TurnsInFlightPrimitives>('turns-in-flight')),
          keysOf: (payer) => [payer.subject],
          clock: guard.clock,
          logger: guard.logger,
          settings: { max: options.maxTurnsInFlight, leaseMs: 15_000 },
        });
  const apps = assembleApps({
    store,
    book,
    generator: options.generator === undefined ? new DeterministicAppGenerator() : options.generator,
    catalog: options.catalog ?? null,
    sandbox: options.sandbox ?? null,
    approvals: new ApprovalBook(store.records<ApprovalPrimitives>('approvals')),
    ids: new SequentialIds(),
    clock: guard.clock,
    logger: guard.logger,
    canShareApps: options.canShareApps ?? null,
    meter,
    slots,
  });
  assembled.apps = apps;
  return { ...guard, store, book, apps, meter };
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

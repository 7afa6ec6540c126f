import type { UseCase } from '../use-case.js';

/** `POST /sync/impact`: per family, how many items depend on the given tools, deployment-wide. */
export interface SyncImpact {
  readonly tools: ReadonlyArray<string>;
  /** Keyed by family (`apps`, `automations`, `grants`); a family that is not mounted is absent. */
  readonly families: Readonly<Record<string, { readonly total: number; readonly byTool: Readonly<Record<string, number>> }>>;
}

/** Development routes: mounted only by the development composition; they take no principal. */
export interface DevelopmentUseCases {
  readonly measureSyncImpact: UseCase<{ tools: ReadonlyArray<string> }, SyncImpact>;
}

import type { AppPageKit } from '../../shared/app-page-kit.js';
import type { ActionInput } from './app-actions.js';
import type { ServedApp } from './served-app.js';

/** One of the app's records, as the frame lists it. */
export interface PageRecord {
  readonly id: string;
  readonly data: unknown;
}

/** A node of the app's tree, as the page draws it. */
export type TreeNode = ServedApp['nodes'][string];

/** What drawing the tree needs of the page around it. */
export interface DrawContext {
  readonly app: ServedApp;
  readonly main: HTMLElement;
  readonly kit: AppPageKit;
  /** The records read so far, by collection (undefined: not read yet). */
  readonly records: Readonly<Record<string, ReadonlyArray<PageRecord> | undefined>>;
  /** A view of the app's records: drawn now, and again whenever they change. */
  live(view: HTMLElement, redraw: () => void): HTMLElement;
  /** Runs the action named `name` with what a node gathered; says what it came to beside `anchor`; true when done. */
  act(name: string | undefined, input: ActionInput, anchor: HTMLElement): Promise<boolean>;
}

import type { AppDocument } from '../domain/apps/app-document.js';
import type { SandboxFile } from './sandbox.js';

/**
 * What a served app boots from: the files graduation and every update write into its sandbox (the
 * document, the app's own server files and, unless it brings one, a server to run them). Adapter:
 * `adapters/apps/node-app-scaffold.ts`, a plain Node server.
 */
export interface AppScaffold {
  filesOf(document: AppDocument): ReadonlyArray<SandboxFile>;
}

/**
 * The served page's bundle: `served-page-script.ts` builds it as one script that sets the global
 * `porterServedPage`, which the page then starts with its app (and an MCP Apps page with its bridge).
 */
export { startServedPage } from '../served-page-runtime.js';

/**
 * `porter-runtime/chrome`: the shipped web chrome (a React client over the wire), prebuilt in the
 * package and served as static files. A host that brings its own interface never loads it.
 */
export {
  serveChrome,
  type Chrome,
  type ChromeKoaContext,
  type ChromeOptions,
  type ChromeSuggestion,
} from '../adapters/chrome/serve-chrome.js';

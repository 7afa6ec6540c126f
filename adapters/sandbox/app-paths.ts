import { posix } from 'node:path';
import { InvalidInput } from '../../domain/errors.js';

/** Where app files live inside every sandbox. */
export const APP_ROOT = '/app';

/**
 * An app id becomes a directory name, a metadata value and a URL segment, so it is held to a
 * small alphabet: no separators, no dots up front, nothing a path could climb out with.
 */
export function checkedAppId(appId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(appId))
    throw new InvalidInput('A sandbox app id must be 1-128 letters, digits, "_" or "-"');
  return appId;
}

/**
 * `/app/public/index.html` → `public/index.html`. Anything outside `/app`, or climbing out of it,
 * is refused rather than normalised, so a bad scaffold fails loudly instead of landing elsewhere.
 */
export function relativeAppPath(path: string): string {
  const normalised = posix.normalize(path);
  if (!path.startsWith(`${APP_ROOT}/`) || normalised !== path || path.includes('\0') || path.endsWith('/')) {
    throw new InvalidInput(`A sandbox file path must be a plain file path under ${APP_ROOT}/ (got ${JSON.stringify(path.slice(0, 200))})`);
  }
  return path.slice(APP_ROOT.length + 1);
}

/** A request path for the app server: must be origin-relative, so it can never name another host. */
export function checkedRequestPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || /[\s\\]/.test(path)) {
    throw new InvalidInput('A sandbox request path must start with a single "/"');
  }
  return path;
}

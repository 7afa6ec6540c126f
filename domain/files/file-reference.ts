import { idPattern } from '../ids.js';

/**
 * A message's file part names an uploaded file by the URL its upload answered: a path ending in
 * `/files/<id>` on this wire (path-absolute, no scheme, no host). Anything else — `data:`, `http(s):`,
 * a path to something else — is refused, so a client can neither make the model fetch a URL nor
 * slip bytes past the upload's checks.
 */
export function fileIdOfUrl(url: string): string | null {
  if (!url.startsWith('/') || url.startsWith('//')) return null;
  const match = /\/files\/([^/?#]+)$/.exec(url);
  const id = match?.[1];
  return id && idPattern('file').test(id) ? id : null;
}

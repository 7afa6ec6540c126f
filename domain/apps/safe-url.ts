/**
 * Which URLs a rendered app may link to (`image` false) or show as an image (`image` true): the
 * one rule of the chrome's renderer and of the served app's static server, whose generated source
 * embeds this function's own text (so it stays self-contained: no names from outside its body).
 *
 * Links: http and https; images: https, or a `data:` URL of a PNG, JPEG, GIF or WebP (not SVG,
 * which can carry script). A reference without a scheme (`notes`, `/x`, `//host/x`) takes the
 * page's own http(s) scheme, so it is kept, link or image: resolved against `base` when one is
 * given (the browser's location), else as written. Parsing is the WHATWG URL parser's, as in the browser, so
 * what it sees is what the browser will follow: leading spaces and control characters, tabs and
 * newlines inside (`java\tscript:`) are read as the browser reads them, and HTML entities are not
 * decoded (the server escapes what it writes, so `javascript&#58;` stays a harmless path). Every
 * other scheme (`javascript:`, `vbscript:`, `data:text/html`, `file:`) is refused: undefined.
 */
export function safeUrl(value: unknown, image: boolean, base?: string): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // No scheme of its own: a reference relative to the page, which it follows over http(s).
    if (base === undefined) return value;
    try {
      url = new URL(value, base);
    } catch {
      return undefined;
    }
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  }
  if (url.protocol === 'https:' || (!image && url.protocol === 'http:')) return url.href;
  if (image && url.protocol === 'data:' && /^data:image\/(png|jpeg|gif|webp)[;,]/.test(value)) return value;
  return undefined;
}

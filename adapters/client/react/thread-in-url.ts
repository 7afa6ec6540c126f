/**
 * The thread id kept in the page's address (`?thread=<id>`), so a reload or a shared link opens the
 * same conversation. Only called from effects and event handlers: never while rendering, so a
 * server render (Next.js) never reaches for `window`.
 */

/** The id in the address's query parameter `param`, or null (also on a server, where there is no address). */
export function threadInUrl(param: string): string | null {
  if (typeof window === 'undefined') return null;
  const id = new URLSearchParams(window.location.search).get(param);
  return id ? id : null;
}

/**
 * Puts `threadId` into the address in place (`history.replaceState`): the other parameters, the
 * path and the hash stay, the history gains no entry, and the page does not reload. The history
 * entry's own state is kept too, so a router that stores its state there (Next.js) keeps working.
 */
export function putThreadInUrl(param: string, threadId: string): void {
  if (typeof window === 'undefined') return;
  const url = new URL(window.location.href);
  if (url.searchParams.get(param) === threadId) return;
  url.searchParams.set(param, threadId);
  window.history.replaceState(window.history.state, '', url);
}

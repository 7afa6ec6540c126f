import { useMemo, useSyncExternalStore } from 'react';

/** The chrome's places. Kept in the URL's hash, so any host can serve the page at any path. */
export type Route =
  | { name: 'home' }
  | { name: 'thread'; threadId: string }
  | { name: 'approvals' }
  | { name: 'apps' }
  | { name: 'app'; appId: string }
  | { name: 'grants' }
  | { name: 'memories' }
  | { name: 'automations' }
  | { name: 'run'; runId: string }
  | { name: 'connections' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const [head, id] = path.split('/').map((segment) => decodeURIComponent(segment));
  if (head === 't' && id) return { name: 'thread', threadId: id };
  if (head === 'apps' && id) return { name: 'app', appId: id };
  if (head === 'apps') return { name: 'apps' };
  if (head === 'approvals') return { name: 'approvals' };
  if (head === 'grants') return { name: 'grants' };
  if (head === 'memories') return { name: 'memories' };
  if (head === 'runs' && id) return { name: 'run', runId: id };
  if (head === 'automations') return { name: 'automations' };
  if (head === 'connections') return { name: 'connections' };
  return { name: 'home' };
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'home':
      return '#/';
    case 'thread':
      return `#/t/${encodeURIComponent(route.threadId)}`;
    case 'app':
      return `#/apps/${encodeURIComponent(route.appId)}`;
    case 'run':
      return `#/runs/${encodeURIComponent(route.runId)}`;
    default:
      return `#/${route.name}`;
  }
}

export function navigate(route: Route): void {
  const href = hrefOf(route);
  if (location.hash !== href) location.hash = href;
}

function onHashChange(changed: () => void): () => void {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
}

/**
 * The route the address names. Read through React's external-store hook, which reads the address
 * again once it listens: a change between the first render and the listener (a link opened while
 * the page starts, on a busy machine) is not lost.
 */
export function useRoute(): Route {
  const hash = useSyncExternalStore(onHashChange, () => location.hash);
  return useMemo(() => parseRoute(hash), [hash]);
}

import type { AppDocument } from '../../domain/apps/app-document.js';

/** URLs that run script (or are meant to), spelled the ways renderers get fooled. */
export const HOSTILE_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\tjavascript:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  'javascript://%0aalert(1)',
  'javascript&#58;alert(1)',
  '&#106;avascript:alert(1)',
  'jav&#x09;ascript:alert(1)',
  'javascript&colon;alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'file:///etc/passwd',
  '"><script>alert(1)</script>',
];

/** A tree document with a link and an image for each hostile URL, plus safe ones. */
export function hostileLinksDocument(): AppDocument {
  const nodes: Record<string, AppDocument['nodes'][string]> = {};
  const children: string[] = [];
  HOSTILE_URLS.forEach((url, i) => {
    nodes[`link-${i}`] = { type: 'link', props: { href: url, text: `hostile link ${i}` } };
    nodes[`image-${i}`] = { type: 'image', props: { src: url, alt: `hostile image ${i}` } };
    children.push(`link-${i}`, `image-${i}`);
  });
  nodes['safe-link'] = { type: 'link', props: { href: 'https://example.com/docs?a=1&b=2', text: 'the docs' } };
  nodes['relative-link'] = { type: 'link', props: { href: 'notes/today', text: 'today' } };
  nodes['safe-image'] = { type: 'image', props: { src: 'data:image/png;base64,iVBORw0KGgo=', alt: 'a dot' } };
  children.push('safe-link', 'relative-link', 'safe-image');
  nodes.root = { type: 'stack', children };
  return { format: 1, title: 'Links', ui: 'tree', scope: 'owner', root: 'root', nodes, data: {}, actions: {}, server: null, egress: null };
}

/** Every href and src of an HTML page, as the browser reads them (character references decoded). */
export function urlsIn(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map((m) =>
    decodeReferences(m[1] ?? m[2] ?? m[3] ?? ''),
  );
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', sol: '/' };

function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#')
      return String.fromCodePoint(ref[1]?.toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** What a browser on an https page would follow for this attribute value: its scheme. */
export function schemeFollowed(url: string): string {
  try {
    return new URL(url, 'https://app.example/page').protocol;
  } catch {
    return 'unparsable';
  }
}

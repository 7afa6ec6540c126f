import { brandedPage, escapeHtml, type DoorBrand } from './door-page.js';

export interface ConnectPageModel {
  readonly brand: DoorBrand;
  /** The door's MCP URL: what a person pastes into their client. */
  readonly serverUrl: string;
  /** Who signs people in: this door, or an external issuer (`remoteAs`). */
  readonly issuer: string;
  readonly external: boolean;
}

/** `GET {wire}/mcp/connect`: how a person adds this door to the agent they use. */
export function connectPage(model: ConnectPageModel): string {
  const url = escapeHtml(model.serverUrl);
  const name = escapeHtml(model.brand.name);
  const slug = escapeHtml(
    model.brand.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'porter',
  );
  const cursorConfig = escapeHtml(JSON.stringify({ mcpServers: { [slug]: { url: model.serverUrl } } }, null, 2));
  const signIn = model.external
    ? `You sign in with <code>${escapeHtml(model.issuer)}</code> when your client asks.`
    : `Your client opens a ${name} page where you sign in and allow it; nothing to copy, no key to paste.`;
  return brandedPage(
    model.brand,
    'Connect an agent',
    `<h1>Use ${name} from your AI agent</h1>
<p>${name} speaks the Model Context Protocol. Add this server URL to your agent:</p>
<pre>${url}</pre>
<p class="muted">${signIn} Reads run right away; anything that changes, deletes or reaches outside waits for your approval in ${name}.</p>
<section><h2>Claude</h2>
<p>Claude (web or desktop): <em>Settings → Connectors → Add custom connector</em>, paste the URL, then <em>Connect</em>.</p>
<p>Claude Code: <code>claude mcp add --transport http ${slug} ${url}</code>, then run <code>/mcp</code> to sign in.</p></section>
<section><h2>ChatGPT</h2>
<p><em>Settings → Apps &amp; Connectors → Advanced settings</em>: turn on developer mode, then <em>Create</em>, paste the URL, choose OAuth as the authentication and connect.</p></section>
<section><h2>Cursor</h2>
<p><em>Settings → MCP → Add new MCP server</em>, or add this to <code>~/.cursor/mcp.json</code>, then press <em>Login</em> beside the server:</p>
<pre>${cursorConfig}</pre></section>
<section><h2>Other clients</h2>
<p>Any MCP client with Streamable HTTP and OAuth works: it discovers sign-in from
<code>${escapeHtml(model.serverUrl)}</code> on its own (RFC 9728 and RFC 8414 metadata).</p></section>`,
  );
}

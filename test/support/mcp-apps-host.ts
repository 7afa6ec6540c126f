import type { Page } from 'playwright-core';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';

/**
 * The restrictive CSP an MCP Apps host applies to a view that declares no domains (SEP-1865, "Host
 * Behavior"): the view's own inline script and style, data images, and no network at all.
 */
const DEFAULT_VIEW_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; object-src 'none'; connect-src 'none'";

/**
 * A minimal MCP Apps host in a browser page, as a desktop host does it: the view's HTML in a
 * sandboxed iframe (an opaque origin, scripts only) under the default CSP, answering the view's
 * `ui/initialize`, proxying its `tools/call` to the MCP server through `client` (the host's own
 * connection, so the server sees the host's person), and handing it a tool's result. `calls`
 * lists the tools the view called, in order.
 */
export class McpAppsHost {
  readonly calls: string[] = [];

  private constructor(private readonly page: Page) {}

  static async render(page: Page, client: Client, html: string, theme: 'light' | 'dark' = 'light'): Promise<McpAppsHost> {
    const host = new McpAppsHost(page);
    await page.exposeFunction('hostAnswers', async (method: string, params: Record<string, unknown>) => {
      if (method === 'ui/initialize')
        return {
          protocolVersion: '2026-01-26',
          hostInfo: { name: 'test-host', version: '1' },
          hostCapabilities: { serverTools: {} },
          hostContext: { theme, displayMode: 'inline' },
        };
      if (method === 'tools/call') {
        host.calls.push(String(params.name));
        return client.callTool(params as { name: string; arguments?: Record<string, unknown> });
      }
      throw new Error(`the test host does not answer ${method}`);
    });
    const framed = html.replace('<head>', `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_VIEW_CSP}">`);
    await page.setContent(
      '<!doctype html><html><body><iframe id="view" sandbox="allow-scripts" style="width:600px;height:600px"></iframe></body></html>',
    );
    await page.evaluate((srcdoc) => {
      const frame = document.getElementById('view') as HTMLIFrameElement;
      const answers = (window as unknown as { hostAnswers: (method: string, params: unknown) => Promise<unknown> }).hostAnswers;
      (window as unknown as { viewNotices: unknown[] }).viewNotices = [];
      window.addEventListener('message', (event) => {
        if (event.source !== frame.contentWindow) return;
        const message = event.data as { jsonrpc?: string; id?: number; method?: string; params?: unknown };
        if (message?.jsonrpc !== '2.0' || typeof message.method !== 'string') return;
        if (message.id === undefined) {
          (window as unknown as { viewNotices: unknown[] }).viewNotices.push(message.method);
          return;
        }
        answers(message.method, message.params ?? {}).then(
          (result) => frame.contentWindow!.postMessage({ jsonrpc: '2.0', id: message.id, result }, '*'),
          (error: Error) =>
            frame.contentWindow!.postMessage({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: error.message } }, '*'),
        );
      });
      frame.srcdoc = srcdoc;
    }, framed);
    return host;
  }

  /** The view, for locating what it drew. */
  get view() {
    return this.page.frameLocator('#view');
  }

  /** Hands the view a tool's result, as the host does once the tool it linked has run. */
  async toolResult(result: CallToolResult): Promise<void> {
    await this.page.waitForFunction(() =>
      (window as unknown as { viewNotices: string[] }).viewNotices.includes('ui/notifications/initialized'),
    );
    await this.page.evaluate(
      (params) => {
        const frame = document.getElementById('view') as HTMLIFrameElement;
        frame.contentWindow!.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/tool-result', params }, '*');
      },
      result as unknown as Record<string, unknown>,
    );
  }

  /** The notifications the view sent the host, by method. */
  notices(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { viewNotices: string[] }).viewNotices);
  }
}

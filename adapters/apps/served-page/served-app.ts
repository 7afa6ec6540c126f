/** What the served page reads of the app's document. */
export interface ServedApp {
  readonly title: string;
  readonly root: string;
  readonly nodes: Readonly<
    Record<
      string,
      {
        readonly type: string;
        readonly props?: Readonly<Record<string, string | number | boolean | null>>;
        readonly children?: ReadonlyArray<string>;
        readonly bind?: string;
        readonly action?: string;
      }
    >
  >;
  readonly data: Readonly<Record<string, { readonly collection: string }>>;
  readonly actions: Readonly<
    Record<string, { readonly kind: string; readonly collection?: string; readonly tool?: string; readonly target?: string }>
  >;
}

/**
 * Another way to ask for the page's ops (`hello`, `records.list|put|delete`, `action`, `fn`) than
 * the porter app bridge: an MCP Apps host's (see mcp-app-page.ts). Answers as the frame does.
 */
export type AppBridge = (op: string, payload: Record<string, unknown>, timeoutMs: number) => Promise<unknown>;

import type { ClientRegistration } from '../../ports/use-cases/door.js';

/**
 * The registration bodies (RFC 7591) and `/authorize` scopes the MCP clients people use send, as
 * their public source and their users' bug reports show them (request shapes only):
 * - VS Code: `src/vs/base/common/oauth.ts` (`fetchDynamicRegistration`), older and newer forms;
 * - Claude Code: a native client on a loopback callback (registrations logged in public bug reports);
 * - claude.ai: a confidential client on its hosted callback, asking `scope=claudeai` at /authorize
 *   (anthropics/claude-ai-mcp#124);
 * - Cursor: three callbacks in one registration, a private-use scheme among them;
 * - the MCP Inspector: the MCP SDK's `OAuthClientProvider` metadata on its local callback.
 * Each also names the scope it asks for at `/authorize`, and whether the registration names one.
 */
export interface ClientShape {
  readonly name: string;
  readonly registration: Readonly<Record<string, unknown>>;
  /** The redirect URI it then uses at /authorize (a loopback one may carry another port). */
  readonly redirectUri: string;
  /** The `scope` it sends to /authorize, if any. */
  readonly authorizeScope?: string;
}

/** What both VS Code registrations send alike. */
const VS_CODE = {
  client_name: 'Visual Studio Code',
  client_uri: 'https://code.visualstudio.com',
  grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
  response_types: ['code'],
};
const VS_CODE_WEB_REDIRECTS = ['https://insiders.vscode.dev/redirect', 'https://vscode.dev/redirect'];

export const CLIENT_SHAPES: ReadonlyArray<ClientShape> = [
  {
    name: 'VS Code (older: device code grant in the list, loopback without a port)',
    registration: {
      ...VS_CODE,
      redirect_uris: [
        ...VS_CODE_WEB_REDIRECTS,
        'http://localhost/',
        'http://127.0.0.1/',
        'http://localhost:33418/',
        'http://127.0.0.1:33418/',
      ],
      token_endpoint_auth_method: 'none',
    },
    redirectUri: 'http://127.0.0.1:33418/',
  },
  {
    name: 'VS Code (newer: native application type, the scopes it wants)',
    registration: {
      ...VS_CODE,
      redirect_uris: [...VS_CODE_WEB_REDIRECTS, 'http://127.0.0.1/', 'http://127.0.0.1:33418/'],
      scope: 'mcp',
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
    redirectUri: 'http://127.0.0.1:53117/',
    authorizeScope: 'mcp',
  },
  {
    name: 'Claude Code',
    registration: {
      client_name: 'Claude Code (porter)',
      redirect_uris: ['http://localhost:3118/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
    redirectUri: 'http://localhost:3118/callback',
    authorizeScope: 'mcp',
  },
  {
    name: 'claude.ai',
    registration: {
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'claudeai',
    },
    redirectUri: 'https://claude.ai/api/mcp/auth_callback',
    authorizeScope: 'claudeai',
  },
  {
    name: 'Cursor',
    registration: {
      client_name: 'Cursor',
      redirect_uris: [
        'cursor://anysphere.cursor-mcp/oauth/callback',
        'https://www.cursor.com/agents/mcp/oauth/callback',
        'http://localhost:8787/callback',
      ],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    redirectUri: 'cursor://anysphere.cursor-mcp/oauth/callback',
  },
  {
    name: 'MCP Inspector',
    registration: {
      redirect_uris: ['http://localhost:6274/oauth/callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'MCP Inspector',
      client_uri: 'https://github.com/modelcontextprotocol/inspector',
    },
    redirectUri: 'http://localhost:6274/oauth/callback',
    authorizeScope: 'mcp',
  },
  {
    name: 'an OAuth 2.1 client asking offline_access for its refresh token',
    registration: {
      client_name: 'Offline agent',
      redirect_uris: ['http://127.0.0.1:9000/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      scope: 'mcp offline_access',
    },
    redirectUri: 'http://127.0.0.1:9000/cb',
    authorizeScope: 'mcp offline_access',
  },
  {
    name: 'a client asking for grants, response types and metadata the door does not do',
    registration: {
      client_name: 'Kitchen sink',
      redirect_uris: ['https://agent.example/callback'],
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'password'],
      response_types: ['code', 'token', 'id_token'],
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'openid profile email offline_access mcp',
      jwks_uri: 'https://agent.example/jwks',
      contacts: ['ops@agent.example'],
      tos_uri: 'https://agent.example/tos',
      software_statement: 'eyJhbGciOiJub25lIn0.e30.',
      logo_uri: 'not a url',
    },
    redirectUri: 'https://agent.example/callback',
    authorizeScope: 'openid profile offline_access',
  },
];

/** A wire registration body as the use case takes it (what the HTTP adapter would hand it). */
export function registrationOf(body: Readonly<Record<string, unknown>>): ClientRegistration {
  const string = (key: string) => (typeof body[key] === 'string' ? { [key]: body[key] as string } : {});
  const list = (key: string) => (Array.isArray(body[key]) ? (body[key] as string[]) : undefined);
  const named = (from: string, to: keyof ClientRegistration) => {
    const value = string(from)[from];
    return value === undefined ? {} : { [to]: value };
  };
  const grantTypes = list('grant_types');
  const responseTypes = list('response_types');
  return {
    redirectUris: list('redirect_uris') ?? [],
    ...named('client_name', 'clientName'),
    ...named('token_endpoint_auth_method', 'tokenEndpointAuthMethod'),
    ...named('scope', 'scope'),
    ...(grantTypes ? { grantTypes } : {}),
    ...(responseTypes ? { responseTypes } : {}),
  };
}

/**
 * `npm run wire-types`: writes adapters/client/wire-types.ts, the TypeScript types of the wire that
 * `createWireClient` (porter-runtime/client) is typed with. openapi-typescript reads the OpenAPI
 * document a Porter instance serves at `GET {wire}/openapi.json` (asked through `porter.fetch`: no
 * network, no port), so the types follow the route declarations. test/e2e/wire-client.test.ts fails
 * while the committed file differs from what this script writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, UNKNOWN, type OpenAPI3 } from 'openapi-typescript';
import { createPorter } from '../composition/create-porter.js';

export const WIRE_TYPES_FILE = fileURLToPath(new URL('../adapters/client/wire-types.ts', import.meta.url));

const HEADER = `/**
 * The wire's paths and bodies as TypeScript types: GENERATED, do not edit.
 * openapi-typescript wrote it from the OpenAPI document Porter serves at GET {wire}/openapi.json
 * (production, apps, automations and the MCP door mounted; paths relative to the wire).
 * Regenerate with \`npm run wire-types\` after changing a route declaration.
 */
/* eslint-disable */
`;

/**
 * The widest production wire: every family mounted, the door with its own authorization server.
 * The development-only routes (`/sync/impact`, `/doctor/present`, …) are left out: a host's code
 * never calls them.
 */
async function servedDocument(): Promise<OpenAPI3> {
  const porter = await createPorter(
    {
      databaseUrl: 'memory:',
      secret: 'wire-types-generator-secret-0123456789abcdef',
      logger: 'silent',
      development: false,
      sandbox: false,
      mcp: true,
      oauth: { principal: (subject) => ({ subject, kind: 'user' }) },
    },
    {},
  );
  try {
    const response = await porter.fetch(new Request(`http://porter.invalid${porter.mount}/openapi.json`));
    if (!response.ok) throw new Error(`GET ${porter.mount}/openapi.json answered ${response.status}`);
    return (await response.json()) as OpenAPI3;
  } finally {
    await porter.close();
  }
}

/** Paths at the origin root (`servers: [{ url: '/' }]`, the OAuth discovery documents) are not under the wire a client is based on. */
function wireOnly(document: OpenAPI3): OpenAPI3 {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([, item]) => !('servers' in item)));
  return { ...document, paths };
}

/** The generated file's text, as `npm run wire-types` writes it. */
export async function wireTypesSource(): Promise<string> {
  const ast = await openapiTS(wireOnly(await servedDocument()), {
    silent: true,
    // Any JSON value refers to itself, which a TypeScript type alias inside an interface cannot: `unknown` says the same.
    transform: (_schema, { path }) => (path === '#/components/schemas/JsonValue' ? UNKNOWN : undefined),
  });
  return `${HEADER}\n${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(WIRE_TYPES_FILE, await wireTypesSource());
  console.warn(`wrote ${WIRE_TYPES_FILE}`);
}

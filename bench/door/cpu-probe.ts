import { setMaxListeners } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bareMcpServer } from './bare-mcp-server.js';
import { accessTokenForBench, doorHostForBench, unsignalledFetchForBench } from './door.bench.js';

setMaxListeners(50_000);
const N = Number(process.env.N ?? 3000);
async function cpuPer(client: Client): Promise<number> {
  for (let i = 0; i < 300; i++) await client.callTool({ name: 'notes_list', arguments: {} });
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) await client.callTool({ name: 'notes_list', arguments: {} });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}
const bare = await bareMcpServer();
const bareClient = new Client({ name: 'b', version: '1' });
await bareClient.connect(new StreamableHTTPClientTransport(new URL(bare.url), { fetch: unsignalledFetchForBench }));
for (const cache of [undefined, 0]) {
  const host = await doorHostForBench(cache);
  const door = new URL(`${host.url}${host.porter.mount}/mcp`);
  const token = await accessTokenForBench(door, 'x');
  const c = new Client({ name: 'b', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(door, { fetch: unsignalledFetchForBench, requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const b = await cpuPer(bareClient);
  const d = await cpuPer(c);
  console.log(`cache ${cache ?? 'on'}: bare ${b.toFixed(0)} µs CPU/call, door ${d.toFixed(0)} µs, ratio ${(d / b).toFixed(2)}`);
  await c.close();
  await host.close();
}
await bareClient.close();
await bare.close();
process.exit(0);

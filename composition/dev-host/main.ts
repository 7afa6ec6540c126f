import { PorterConfigError } from '../config/load-config.js';

/**
 * `npm start`: the development host. It signs people in from a header and a cookie anyone can set,
 * so it refuses to run as production (before it opens a store, writes a secret or listens); a
 * production deployment is a host's own Porter, e.g. `porter serve --config`.
 */
const PRODUCTION_REFUSAL = `npm start runs Porter's development host, which signs people in from the x-demo-user header or the
porter_demo_user cookie (anyone can set either); it does not run with NODE_ENV=production.
In production, serve your own host with your principal resolver and PORTER_SECRET:
  porter serve --config <file>     (see docs/hosts.md)
To try the production composition on this machine only: porter serve --demo (never expose it).`;

if (process.env.NODE_ENV === 'production') {
  console.error(PRODUCTION_REFUSAL);
  process.exit(1);
}

try {
  // Traces to an OTLP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set (devDependencies: `npm start` only).
  const otlp = process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? await loadOtlpExport() : null;
  const { startDevHost } = await import('./dev-host.js');
  const host = await startDevHost();
  if (otlp) console.log(`Porter's traces go to ${otlp.url} (OTLP ${otlp.protocol})`);
  const stop = () =>
    void host
      .close()
      .then(() => otlp?.shutdown())
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Said once the signals are handled, so a stop right after it is graceful.
  console.log(
    `Porter ${host.porter.composition} host listening on ${host.url} (wire at ${host.url}${host.porter.mount}), on Node ${process.version}`,
  );
} catch (error) {
  console.error(error instanceof PorterConfigError ? error.message : error);
  process.exit(1);
}

/** What otlp-export.ts offers (named here, not imported: the build must not pull that file in). */
interface OtlpExportModule {
  startOtlpExport(env: NodeJS.ProcessEnv): { url: string; protocol: string; shutdown(): Promise<void> } | null;
}

/** Loaded by a computed name: the published package has neither otlp-export nor the SDK it imports. */
async function loadOtlpExport() {
  const file = './otlp-export.js';
  const { startOtlpExport } = (await import(file)) as OtlpExportModule;
  return startOtlpExport(process.env);
}

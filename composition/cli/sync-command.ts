import { resolve } from 'node:path';
import type { PorterOptions } from '../config/porter-options.js';
import { findConfigModule, loadConfigModule } from '../server/config-module.js';
import type { SyncReport } from '../../ports/use-cases/apps.js';
import { EXIT, UsageError, type CliIo } from './cli-io.js';
import type { Command } from './main.js';
import { defined } from '../../domain/defined.js';

/** `porter sync`: re-hash the pinned host components and report which forks drifted. */
export const syncCommand: Command = {
  name: 'sync',
  summary: 're-hash remixable host components and report drifted forks',
  help: `Usage: porter sync [--pins <manifest.json>] [--config <file>] [--database <url>] [--fail-on-drift] [--json]

Re-hashes every host component named in the pin manifest and marks the forks whose baseline no
longer matches as drifted (nothing is rebased). Prints the sync report.

Options:
  --pins <file>       the pin manifest { slots: [{ slot, file, title? }] } (default: the config's \`pins\`)
  --config <file>     the host's config module, as \`porter serve --config\` reads it: its default
                      export (or \`options\`) is the createPorter options or (env) => options
                      (default: ./porter.config.ts, .mjs or .js when present)
  --database <url>    the store the host uses (default: $PORTER_DATABASE_URL, else sqlite:.porter/porter.db)
  --fail-on-drift     exit 1 when any fork is drifted or a pinned component is missing (for CI)
  --json              print the report as JSON`,
  options: {
    pins: { type: 'string' },
    config: { type: 'string' },
    database: { type: 'string' },
    'fail-on-drift': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(values, positionals, io) {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const env: NodeJS.ProcessEnv = {
      ...io.env,
      ...defined({ PORTER_DATABASE_URL: typeof values.database === 'string' ? values.database : undefined }),
    };
    const options: { -readonly [K in keyof PorterOptions]: PorterOptions[K] } = {
      ...(await hostOptions(typeof values.config === 'string' ? values.config : undefined, env, io)),
    };
    if (typeof values.pins === 'string') options.pins = resolve(values.pins);
    if (!options.pins) throw new UsageError('no pin manifest: pass --pins <manifest.json> or set `pins` in the config module');
    if (options.development === undefined) options.development = io.env.NODE_ENV !== 'production';
    // The flag names the store for this run, so it wins over the config module's databaseUrl too.
    if (typeof values.database === 'string') options.databaseUrl = values.database;
    // A sync only re-hashes and marks forks: it must not tick schedules or take runs (pg-boss jobs, or
    // the interval ticker) in a process that exits when the report is printed.
    options.scheduler = 'external';
    io.err(`porter sync: re-hashing the pinned host components${typeof options.pins === 'string' ? ` of ${options.pins}` : ''}…`);
    // The apps family's sync (composition/apps-sync.ts), loaded only when it runs.
    const { syncPins } = await import('../apps-sync.js');
    const report = await syncPins(options, env);
    if (values.json) io.out(JSON.stringify(report, null, 2));
    else printReport(report, io);
    const drifted = report.slots.reduce((sum, slot) => sum + slot.drifted, 0);
    const troubled = drifted > 0 || report.drifted.length > 0 || report.missing.length > 0;
    return values['fail-on-drift'] && troubled ? EXIT.failed : EXIT.ok;
  },
};

/** The host's options from its config module, when it has one. */
async function hostOptions(file: string | undefined, env: NodeJS.ProcessEnv, io: CliIo): Promise<PorterOptions> {
  const path = file ?? findConfigModule();
  if (!path) return {};
  io.err(`porter sync: reading the host's options from ${resolve(path)}`);
  return loadConfigModule(path, env);
}

function printReport(report: SyncReport, io: CliIo): void {
  io.out(`Pins checked at ${report.checkedAt}: ${report.slots.length} slot(s)`);
  for (const slot of report.slots)
    io.out(`  ${slot.slot.padEnd(24)} ${slot.hash.slice(0, 12)}  ${slot.forks} fork(s), ${slot.drifted} drifted`);
  if (report.drifted.length) {
    io.out(
      `Newly drifted forks (${report.drifted.length}): rebase them explicitly (POST /apps/:id/rebase {slot}); nothing rebases on its own`,
    );
    for (const fork of report.drifted)
      io.out(`  ${fork.appId}  ${fork.slot}  ${fork.baselineHash.slice(0, 12)} → ${fork.currentHash.slice(0, 12)}`);
  }
  if (report.current.length) {
    io.out(`Back in step (${report.current.length}):`);
    for (const fork of report.current) io.out(`  ${fork.appId}  ${fork.slot}`);
  }
  if (report.missing.length) {
    io.out(`Missing components (${report.missing.length}):`);
    for (const slot of report.missing) io.out(`  ${slot.slot}: ${slot.reason}`);
  }
  if (!report.drifted.length && report.slots.every((s) => s.drifted === 0)) io.out('No fork has drifted.');
}

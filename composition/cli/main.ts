import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PORTER_VERSION } from '../version.js';
import { PorterConfigError } from '../config/load-config.js';
import { ConfigModuleError } from '../server/config-module.js';
import { EXIT, UsageError, processIo, type CliIo } from './cli-io.js';
import { serveCommand } from './serve-command.js';
import { syncCommand } from './sync-command.js';
import { doctorCommand } from './doctor-command.js';

/** One `porter <name>` command. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  /** The full `--help` text. */
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  run(values: Record<string, string | boolean | undefined>, positionals: string[], io: CliIo): Promise<number>;
}

const COMMANDS: ReadonlyArray<Command> = [serveCommand, syncCommand, doctorCommand];

const EXIT_CODES = `Exit codes:
  0  success
  1  a check failed (doctor) or forks drifted and --fail-on-drift was given (sync)
  2  wrong usage, invalid configuration, or the host could not be reached`;

function overview(): string {
  return [
    `porter ${PORTER_VERSION}: the Porter agent runtime's command`,
    '',
    'Usage: porter <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(8)} ${c.summary}`),
    '',
    "Run `porter <command> --help` for a command's options.",
    '',
    EXIT_CODES,
  ].join('\n');
}

/** Runs `porter …` and resolves with the exit code. Never throws. */
export async function main(argv: ReadonlyArray<string>, io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.err : io.out)(overview());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.out(PORTER_VERSION);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`porter: unknown command "${name}"\n\n${overview()}`);
    return EXIT.usage;
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...rest],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    io.err(`porter ${name}: ${(error as Error).message}\n\n${command.help}`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    io.out(`${command.help}\n\n${EXIT_CODES}`);
    return EXIT.ok;
  }
  try {
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`porter ${name}: ${error.message}\n\n${command.help}`);
      return EXIT.usage;
    }
    if (error instanceof PorterConfigError || error instanceof ConfigModuleError) {
      io.err(`porter ${name}: ${error.message}`);
      return EXIT.usage;
    }
    io.err(`porter ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }
}

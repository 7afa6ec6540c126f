/** Where a command writes and what it reads; tests pass their own. */
export interface CliIo {
  /** Results: what a script might pipe on. */
  out(line: string): void;
  /** Progress and problems. */
  err(line: string): void;
  readonly env: NodeJS.ProcessEnv;
  /** Colour and symbols only for a person at a terminal. */
  readonly tty: boolean;
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    tty: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
  };
}

/** Exit codes a CI can act on; `--help` of every command lists them. */
export const EXIT = {
  ok: 0,
  /** A check failed (doctor) or drift was found with --fail-on-drift (sync). */
  failed: 1,
  /** Wrong usage, invalid configuration, or the host could not be reached. */
  usage: 2,
} as const;

/** Thrown for wrong usage; main prints the message and the command's usage, exit 2. */
export class UsageError extends Error {}

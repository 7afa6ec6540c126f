import { mkdir, readFile, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The pid of an app's running server, kept beside the app directory. App servers run in their own
 * process group (so they can be stopped as a tree), which also means they outlive a host that dies
 * without closing them; the next start finds the record and stops that group first.
 */
export class ServerRecord {
  constructor(
    private readonly file: string,
    private readonly directory: string,
  ) {}

  async remember(pid: number): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    await writeFile(this.file, String(pid));
  }

  async forget(): Promise<void> {
    await rm(this.file, { force: true });
  }

  /**
   * Stops a server left by an earlier host, but only when it provably is this app's: on Linux its
   * working directory is the app directory. A recycled pid, or a platform without /proc, is left alone.
   */
  async reapLeftover(): Promise<void> {
    const pid = Number(await readFile(this.file, 'utf8').catch(() => ''));
    if (Number.isInteger(pid) && pid > 1) {
      const [cwd, directory] = await Promise.all([
        readlink(`/proc/${pid}/cwd`).catch(() => null),
        realpath(this.directory).catch(() => this.directory),
      ]);
      if (cwd === directory) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone in the meantime
        }
      }
    }
    await this.forget();
  }
}

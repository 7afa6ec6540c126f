import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Another process holding a SQLite file's write lock until told to let go. */
export interface SqliteLockHolder {
  /** Commits the holder's transaction and waits for the process to exit. */
  release(): Promise<void>;
}

/**
 * Starts a Node process that opens the file with libsql and takes its write lock (`begin immediate`);
 * resolves once the lock is held. A real process, not a second connection in this one: what a
 * second Porter instance or a CLI run on the same file would do.
 */
export async function holdSqliteWriteLock(file: string): Promise<SqliteLockHolder> {
  const script =
    "const Database = require('libsql'); const db = new Database(process.argv[1]); db.exec('begin immediate'); " +
    "process.stdout.write('locked\\n'); process.stdin.resume(); process.stdin.on('end', () => { db.exec('commit'); db.close(); });";
  const child = spawn(process.execPath, ['-e', script, file], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  return {
    async release() {
      child.stdin.end();
      const [code] = await exited;
      if (code !== 0) throw new Error(`the lock holder exited with ${code}`);
    },
  };
}

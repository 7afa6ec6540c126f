import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A self-signed certificate for `host` (made by openssl in `folder`), for a local HTTPS server in a test. */
export async function selfSignedCertificate(folder: string, host: string): Promise<{ key: string; cert: string }> {
  const keyFile = join(folder, 'key.pem');
  const certFile = join(folder, 'cert.pem');
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    `/CN=${host}`,
    '-addext',
    `subjectAltName=DNS:${host}`,
  ]);
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
}

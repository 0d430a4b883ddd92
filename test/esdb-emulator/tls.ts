/**
 * Certificates for a secure emulator node, made at start with Debian's `openssl` as the server's own
 * test setup makes them with `es-gencert-cli` (EventStore-Client-NodeJS `packages/test/src/utils/Cluster.ts`,
 * `createCertGen`): a self-signed CA, a node certificate for 127.0.0.1 and localhost signed by it, and
 * user certificates `admin` and `invalid` (which only the commercial user-certificates plugin reads).
 * The files are laid out as that helper lays them (`ca/ca.crt`, `node/node.crt`, `user-admin/…`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsMaterial {
  /** The folder holding every file below. */
  dir: string;
  caFile: string;
  ca: Buffer;
  node: { cert: Buffer; key: Buffer };
  users: Record<'admin' | 'invalid', { certFile: string; keyFile: string }>;
}

export function generateTlsMaterial(dir = mkdtempSync(join(tmpdir(), 'esdb-emulator-certs-'))): TlsMaterial {
  const ca = join(dir, 'ca');
  mkdirSync(ca, { recursive: true });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=EventStoreDB emulator CA',
    '-keyout',
    join(ca, 'ca.key'),
    '-out',
    join(ca, 'ca.crt'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  const node = signed(dir, 'node', '/CN=eventstoredb-node', [
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    'extendedKeyUsage=serverAuth,clientAuth',
  ]);
  const users = {
    admin: signed(dir, 'user-admin', '/CN=admin', ['extendedKeyUsage=clientAuth']),
    invalid: signed(dir, 'user-invalid', '/CN=invalid', ['extendedKeyUsage=clientAuth']),
  };
  return {
    dir,
    caFile: join(ca, 'ca.crt'),
    ca: readFileSync(join(ca, 'ca.crt')),
    node: { cert: readFileSync(node.certFile), key: readFileSync(node.keyFile) },
    users,
  };
}

function signed(dir: string, name: string, subject: string, extensions: string[]): { certFile: string; keyFile: string } {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const keyFile = join(folder, `${name}.key`);
  const certFile = join(folder, `${name}.crt`);
  const csr = join(folder, `${name}.csr`);
  const ext = join(folder, `${name}.ext`);
  writeFileSync(ext, extensions.join('\n') + '\n');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', keyFile, '-out', csr);
  openssl(
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    join(dir, 'ca', 'ca.crt'),
    '-CAkey',
    join(dir, 'ca', 'ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    ext,
    '-out',
    certFile,
  );
  return { certFile, keyFile };
}

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

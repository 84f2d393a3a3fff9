// Generates a throwaway CA, a server certificate for 127.0.0.1/localhost and a client certificate
// with openssl, for TLS tests against etcd with --client-cert-auth.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFiles {
  readonly dir: string;
  readonly caFile: string;
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
  readonly clientCertFile: string;
  readonly clientKeyFile: string;
  /** Removes the directory. */
  remove(): void;
}

function openssl(args: readonly string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

function signedCert(dir: string, opts: { name: string; cn: string; ext: string }): void {
  const extFile = `${opts.name}.ext`;
  writeFileSync(join(dir, extFile), opts.ext);
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${opts.name}.key`], dir);
  openssl(
    ['req', '-new', '-key', `${opts.name}.key`, '-subj', `/CN=${opts.cn}`, '-out', `${opts.name}.csr`],
    dir,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${opts.name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-sha256',
      '-extfile',
      extFile,
      '-out',
      `${opts.name}.crt`,
    ],
    dir,
  );
}

/** True when an `openssl` binary is on the PATH. */
export function opensslInstalled(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-etcd-tls-'));
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key'], dir);
  openssl(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      'ca.key',
      '-subj',
      '/CN=capstan-test-ca',
      '-days',
      '2',
      '-out',
      'ca.crt',
    ],
    dir,
  );
  signedCert(dir, {
    name: 'server',
    cn: 'etcd-server',
    ext: 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
  });
  signedCert(dir, { name: 'client', cn: 'capstan-apiserver', ext: 'extendedKeyUsage=clientAuth\n' });
  return {
    dir,
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
    remove: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

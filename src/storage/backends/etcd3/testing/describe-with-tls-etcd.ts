// Registers a describe block around one etcd that serves clients over TLS and demands client
// certificates, with a throwaway CA made by openssl. Without etcd or openssl it registers one test
// that skips saying why (or fails in CI).
import { after, before, describe, it } from 'node:test';
import { etcdInstalled, requireEtcd, startEtcd, type EtcdProcess } from './etcd-process.js';
import { makeTlsFiles, opensslInstalled, type TlsFiles } from './tls-certs.js';

export interface TlsEtcdFixture {
  /** The running etcd and its certificates (valid inside tests). */
  readonly etcd: () => EtcdProcess;
  readonly tls: () => TlsFiles;
}

export function describeWithTlsEtcd(name: string, body: (fx: TlsEtcdFixture) => void): void {
  if (!etcdInstalled() || !opensslInstalled()) {
    it(name, (t) => {
      if (!requireEtcd(t)) return;
      if (process.env['CI'] !== undefined && process.env['CI'] !== '')
        throw new Error('openssl not installed');
      t.skip('openssl not installed: apt-get install -y openssl');
    });
    return;
  }
  describe(name, () => {
    let files: TlsFiles | undefined;
    let proc: EtcdProcess | undefined;
    before(async () => {
      files = makeTlsFiles();
      proc = await startEtcd({ tls: files });
    });
    after(async () => {
      await proc?.stop();
      files?.remove();
    });
    const running = <T>(value: T | undefined): T => {
      if (value === undefined) throw new Error('etcd is not running (used outside a test?)');
      return value;
    };
    body({ etcd: () => running(proc), tls: () => running(files) });
  });
}

// Registers a describe block that shares one etcd started before its tests and stopped after them.
// Without etcd on the PATH it registers one test that skips (or fails in CI) saying why.
import { after, before, describe, it } from 'node:test';
import { etcdInstalled, requireEtcd, startEtcd, type EtcdOptions, type EtcdProcess } from './etcd-process.js';

export interface EtcdFixture {
  /** The running etcd (valid inside tests). */
  etcd(): EtcdProcess;
}

export function describeWithEtcd(
  name: string,
  body: (fx: EtcdFixture) => void,
  opts: EtcdOptions = {},
): void {
  if (!etcdInstalled()) {
    it(name, (t) => {
      requireEtcd(t);
    });
    return;
  }
  describe(name, () => {
    let proc: EtcdProcess | null = null;
    before(async () => {
      proc = await startEtcd(opts);
    });
    after(async () => {
      await proc?.stop();
    });
    body({
      etcd: () => {
        if (proc === null) throw new Error('etcd is not running (used outside a test?)');
        return proc;
      },
    });
  });
}

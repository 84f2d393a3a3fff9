// TLS with client certificates (kube's --etcd-cafile/--etcd-certfile/--etcd-keyfile).
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { BackendUnavailableError, prefixRange } from '../../kv/backend.js';
import { WatchRecorder } from '../../kv/testing/watch-recorder.js';
import { Etcd3Backend } from './etcd-backend.js';
import { describeWithTlsEtcd } from './testing/describe-with-tls-etcd.js';
import type { EtcdProcess } from './testing/etcd-process.js';
import { makeTlsFiles, type TlsFiles } from './testing/tls-certs.js';

describeWithTlsEtcd('etcd3 over TLS with client certificates', (fx) => {
  let tls: TlsFiles;
  let etcd: EtcdProcess;
  before(() => {
    tls = fx.tls();
    etcd = fx.etcd();
  });

  it('reads, writes and watches with a client certificate signed by the trusted CA', async () => {
    assert.match(etcd.endpoints[0] ?? '', /^https:\/\/127\.0\.0\.1:\d+$/);
    const be = new Etcd3Backend({
      endpoints: etcd.endpoints,
      tls: { caFile: tls.caFile, certFile: tls.clientCertFile, keyFile: tls.clientKeyFile },
    });
    try {
      const rec = new WatchRecorder(5000);
      be.watch(prefixRange('/tls/'), { fromRevision: (await be.currentRevision()) + 1 }, rec);
      const res = await be.create('/tls/k', Buffer.from('secret'));
      assert.ok(res.ok);
      assert.equal((await be.get('/tls/k')).kv?.value.toString(), 'secret');
      assert.deepEqual(
        (await rec.waitForEvents(1)).map((e) => e.kv.key),
        ['/tls/k'],
      );
    } finally {
      await be.close();
    }
  });

  it('trusts an extra CA file along with the default roots (NODE_EXTRA_CA_CERTS handed over)', async () => {
    const be = new Etcd3Backend({
      endpoints: etcd.endpoints,
      tls: { extraCaFile: tls.caFile, certFile: tls.clientCertFile, keyFile: tls.clientKeyFile },
    });
    try {
      await be.create('/tls/extra', Buffer.from('v'));
      assert.equal((await be.get('/tls/extra')).kv?.value.toString(), 'v');
    } finally {
      await be.close();
    }
  });

  it('does not trust the private CA from the default roots alone', async () => {
    const be = new Etcd3Backend({
      endpoints: etcd.endpoints,
      tls: { certFile: tls.clientCertFile, keyFile: tls.clientKeyFile },
      requestTimeoutMs: 3000,
    });
    try {
      await assert.rejects(be.get('/tls/extra'), BackendUnavailableError);
    } finally {
      await be.close();
    }
  });

  it('is refused without a client certificate, as BackendUnavailableError', async () => {
    const be = new Etcd3Backend({
      endpoints: etcd.endpoints,
      tls: { caFile: tls.caFile },
      requestTimeoutMs: 3000,
    });
    try {
      await assert.rejects(be.get('/tls/k'), BackendUnavailableError);
    } finally {
      await be.close();
    }
  });

  it('does not trust a server whose CA it was not given', async () => {
    const other = makeTlsFiles();
    const be = new Etcd3Backend({
      endpoints: etcd.endpoints,
      tls: { caFile: other.caFile, certFile: tls.clientCertFile, keyFile: tls.clientKeyFile },
      requestTimeoutMs: 3000,
    });
    try {
      await assert.rejects(be.get('/tls/k'), (err: unknown) => {
        return err instanceof BackendUnavailableError && /certificate/i.test(err.message);
      });
    } finally {
      await be.close();
      other.remove();
    }
  });
});

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writePKIDir } from '../tls/pki-dir.js';
import {
  builtinSignerNames,
  type BuiltinSignerName,
} from '../../api/certificates/v1/certificate-signing-request.js';
import {
  clusterSigningOf,
  defaultClusterSigningOptions,
  type ClusterSigning,
  type ClusterSigningSources,
} from './cluster-signing.js';

/** Each served signer's certificate file. */
const certFiles = (s: Extract<ClusterSigning, { signers: unknown }>): Map<BuiltinSignerName, string> =>
  new Map([...s.signers].map(([name, loaded]) => [name, loaded.certFile]));
const everySigner = (file: string): Map<BuiltinSignerName, string> =>
  new Map(builtinSignerNames.map((name) => [name, file]));

describe('the cluster signing CA', () => {
  let dir: string;
  let pki: string;
  let caPem: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-signing-'));
    pki = join(dir, 'pki');
    await writePKIDir({ dir: pki, sans: [], server: 'https://127.0.0.1:6443' });
    caPem = await readFile(join(pki, 'ca.crt'), 'utf8');
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const sources = (over: Partial<ClusterSigningSources>): ClusterSigningSources => ({
    signing: defaultClusterSigningOptions(),
    pkiDir: '',
    generatedCA: false,
    dataDir: dir,
    clientCAPem: '',
    ...over,
  });

  it("is the --pki-dir CA that --client-ca-file trusts, for every signer, a year's duration", async () => {
    const got = await clusterSigningOf(sources({ pkiDir: pki, clientCAPem: caPem }));
    assert.ok('signers' in got);
    assert.deepEqual(certFiles(got), everySigner(join(pki, 'ca.crt')));
    assert.deepEqual(got.skipped, []);
    assert.equal(got.certTTLMs, 365 * 86_400_000);
  });

  it("is the data dir's generated CA once --client-ca-file names it", async () => {
    const got = await clusterSigningOf(sources({ generatedCA: true, dataDir: dir, clientCAPem: caPem }));
    assert.ok('signers' in got);
    assert.deepEqual(certFiles(got), everySigner(join(dir, 'pki', 'ca.crt')));
  });

  it('is its own CA all the same when client certificates do not trust it', async () => {
    const untrusted = await clusterSigningOf(sources({ pkiDir: pki }));
    assert.ok('signers' in untrusted);
    assert.deepEqual(certFiles(untrusted), everySigner(join(pki, 'ca.crt')));
    const foreign = await clusterSigningOf(sources({ generatedCA: true, clientCAPem: 'not a bundle' }));
    assert.ok('signers' in foreign);
    assert.deepEqual(certFiles(foreign), everySigner(join(dir, 'pki', 'ca.crt')));
  });

  it('is off without a CA of its own, or with one file only', async () => {
    const none = await clusterSigningOf(sources({ clientCAPem: caPem }));
    assert.ok('off' in none);
    assert.match(
      none.off,
      /^Skipping CSR signer controller because no csr cert\/key was specified, and this/,
    );
    const keyless = await clusterSigningOf(sources({ pkiDir: join(dir, 'nowhere') }));
    assert.ok('off' in keyless);
    const one = await clusterSigningOf(
      sources({
        signing: { ...defaultClusterSigningOptions(), certFile: join(pki, 'ca.crt') },
        clientCAPem: caPem,
      }),
    );
    assert.deepEqual(one, { off: 'Skipping CSR signer controller because no csr cert/key was specified' });
  });

  it('reads the flags, and stops the start when their files do not make a CA', async () => {
    const signing = {
      ...defaultClusterSigningOptions(),
      certFile: join(pki, 'ca.crt'),
      keyFile: join(pki, 'ca.key'),
      durationMs: 3_600_000,
    };
    const given = await clusterSigningOf(sources({ signing }));
    assert.ok('signers' in given);
    assert.deepEqual(certFiles(given), everySigner(join(pki, 'ca.crt')));
    assert.equal(given.certTTLMs, 3_600_000);
    const wrongKey = await clusterSigningOf(
      sources({ signing: { ...signing, keyFile: join(pki, 'admin.key') } }),
    );
    assert.deepEqual(wrongKey, {
      error:
        'failed to start kubernetes.io/kubelet-serving certificate controller: tls: private key does not match public key',
    });
    const empty = join(dir, 'empty.crt');
    await writeFile(empty, '');
    const noCert = await clusterSigningOf(sources({ signing: { ...signing, certFile: empty } }));
    assert.deepEqual(noCert, {
      error: `failed to start kubernetes.io/kubelet-serving certificate controller: error reading CA cert file ${JSON.stringify(empty)}: expected 1 certificate, found 0`,
    });
  });

  describe('per-signer files', () => {
    let other: string;
    before(async () => {
      other = join(dir, 'other-pki');
      await writePKIDir({ dir: other, sans: [], server: 'https://127.0.0.1:6443' });
    });
    const files = (d: string) => ({ certFile: join(d, 'ca.crt'), keyFile: join(d, 'ca.key') });
    const withSigners = (
      signers: Partial<Record<BuiltinSignerName, { certFile: string; keyFile: string }>>,
      single: { certFile?: string; keyFile?: string } = {},
    ) => {
      const signing = defaultClusterSigningOptions();
      Object.assign(signing.signers, signers);
      return sources({ signing: { ...signing, ...single }, pkiDir: pki, clientCAPem: caPem });
    };

    it('give each signer named its own CA and the others none, rather than this server’s CA', async () => {
      const got = await clusterSigningOf(
        withSigners({
          'kubernetes.io/kubelet-serving': files(other),
          'kubernetes.io/kube-apiserver-client': files(pki),
        }),
      );
      assert.ok('signers' in got);
      assert.deepEqual(
        certFiles(got),
        new Map([
          ['kubernetes.io/kubelet-serving', join(other, 'ca.crt')],
          ['kubernetes.io/kube-apiserver-client', join(pki, 'ca.crt')],
        ]),
      );
      assert.notEqual(
        got.signers.get('kubernetes.io/kubelet-serving')?.ca.certificate.fingerprint256,
        got.signers.get('kubernetes.io/kube-apiserver-client')?.ca.certificate.fingerprint256,
      );
      assert.deepEqual(got.skipped, [
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/legacy-unknown',
      ]);
    });

    it('take over from a lone --cluster-signing-cert-file, and may not come with both', async () => {
      const lone = await clusterSigningOf(
        withSigners({ 'kubernetes.io/legacy-unknown': files(other) }, { certFile: join(pki, 'ca.crt') }),
      );
      assert.ok('signers' in lone);
      assert.deepEqual([...lone.signers.keys()], ['kubernetes.io/legacy-unknown']);
      const both = await clusterSigningOf(
        withSigners({ 'kubernetes.io/legacy-unknown': files(other) }, files(pki)),
      );
      assert.deepEqual(both, { error: 'cannot specify default and per controller certs at the same time' });
    });

    it('stop the start when a pair is half given or does not make a CA', async () => {
      const half = await clusterSigningOf(
        withSigners({
          'kubernetes.io/kube-apiserver-client-kubelet': { certFile: join(other, 'ca.crt'), keyFile: '' },
        }),
      );
      assert.deepEqual(half, {
        error:
          'failed to start kubernetes.io/kube-apiserver-client-kubelet certificate controller: missing filename for serving cert',
      });
      const mismatched = await clusterSigningOf(
        withSigners({
          'kubernetes.io/kube-apiserver-client': {
            certFile: join(other, 'ca.crt'),
            keyFile: join(pki, 'ca.key'),
          },
        }),
      );
      assert.deepEqual(mismatched, {
        error:
          'failed to start kubernetes.io/kube-apiserver-client certificate controller: tls: private key does not match public key',
      });
    });
  });
});

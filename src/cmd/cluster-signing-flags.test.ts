import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';

describe('the CSR signing flags', () => {
  it('set the shared pair, the duration, and each signer’s own pair', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--cluster-signing-duration=720h',
        '--cluster-signing-kubelet-serving-cert-file=/pki/server-ca.crt',
        '--cluster-signing-kubelet-serving-key-file=/pki/server-ca.key',
        '--cluster-signing-kubelet-client-cert-file=/pki/client-ca.crt',
        '--cluster-signing-kubelet-client-key-file=/pki/client-ca.key',
        '--cluster-signing-kube-apiserver-client-cert-file=/pki/client-ca.crt',
        '--cluster-signing-kube-apiserver-client-key-file=/pki/client-ca.key',
        '--cluster-signing-legacy-unknown-cert-file',
        '/pki/server-ca.crt',
        '--cluster-signing-legacy-unknown-key-file=/pki/server-ca.key',
      ],
      capstanFlags,
      o,
    );
    assert.equal(o.clusterSigning.durationMs, 720 * 3_600_000);
    assert.equal(o.clusterSigning.certFile, '');
    assert.deepEqual(o.clusterSigning.signers, {
      'kubernetes.io/kubelet-serving': { certFile: '/pki/server-ca.crt', keyFile: '/pki/server-ca.key' },
      'kubernetes.io/kube-apiserver-client-kubelet': {
        certFile: '/pki/client-ca.crt',
        keyFile: '/pki/client-ca.key',
      },
      'kubernetes.io/kube-apiserver-client': {
        certFile: '/pki/client-ca.crt',
        keyFile: '/pki/client-ca.key',
      },
      'kubernetes.io/legacy-unknown': { certFile: '/pki/server-ca.crt', keyFile: '/pki/server-ca.key' },
    });
    const shared = defaultServerRunOptions();
    parseFlags(
      ['--cluster-signing-cert-file=/ca.crt', '--cluster-signing-key-file=/ca.key'],
      capstanFlags,
      shared,
    );
    assert.deepEqual(
      { certFile: shared.clusterSigning.certFile, keyFile: shared.clusterSigning.keyFile },
      { certFile: '/ca.crt', keyFile: '/ca.key' },
    );
    assert.deepEqual(shared.clusterSigning.signers, defaultServerRunOptions().clusterSigning.signers);
  });
});

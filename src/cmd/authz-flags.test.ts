// The authorization flags on the command line: kube's names, defaults and validation messages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { main } from './capstan.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { recordingIO } from './testing/recording-io.js';
import { defaultServerRunOptions } from '../server/options/server-run-options.js';

describe('--authorization-webhook-* and --authorization-config', () => {
  it('set the webhook options and mark the legacy flags given', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--authorization-mode=Node,Webhook,RBAC',
        '--authorization-webhook-config-file=/etc/authz.yaml',
        '--authorization-webhook-version=v1',
        '--authorization-webhook-cache-authorized-ttl=1m',
        '--authorization-webhook-cache-unauthorized-ttl=5s',
      ],
      capstanFlags,
      o,
    );
    assert.deepEqual(o.authorizationModes, ['Node', 'Webhook', 'RBAC']);
    assert.deepEqual(o.authorization, {
      webhookConfigFile: '/etc/authz.yaml',
      webhookVersion: 'v1',
      webhookCacheAuthorizedTTLMs: 60_000,
      webhookCacheUnauthorizedTTLMs: 5_000,
      configFile: '',
      legacyFlagsSet: true,
    });
    const structured = defaultServerRunOptions();
    parseFlags(['--authorization-config=/etc/authz-config.yaml'], capstanFlags, structured);
    assert.equal(structured.authorization.configFile, '/etc/authz-config.yaml');
    assert.equal(structured.authorization.legacyFlagsSet, false);
  });

  it('exits 1 with kube’s messages', async () => {
    const t = recordingIO();
    assert.equal(await main(['--authorization-mode=Webhook', '--data-dir=/tmp/capstan-unused'], t), 1);
    assert.deepEqual(t.err, ["Error: authorization-mode Webhook's authorization config file not passed\n"]);
    const u = recordingIO();
    assert.equal(
      await main(
        ['--authorization-config=/x', '--authorization-mode=RBAC', '--data-dir=/tmp/capstan-unused'],
        u,
      ),
      1,
    );
    assert.deepEqual(u.err, [
      'Error: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined\n',
    ]);
  });
});

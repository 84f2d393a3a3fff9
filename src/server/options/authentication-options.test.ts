import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memorySink } from '../logging/logger.js';
import { completeServerRunOptions, OptionsError } from './complete.js';
import {
  anonymousAuthOf,
  anonymousAuthResetWarning,
  defaultServerRunOptions,
  type ServerRunOptions,
} from './server-run-options.js';

describe('authentication options', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-authn-options-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const options = (edit: (o: ServerRunOptions) => void): ServerRunOptions => {
    const o = defaultServerRunOptions();
    o.storage.backend = 'memory';
    o.storage.dataDir = dir;
    o.securePort = -1;
    o.insecurePort = 1;
    edit(o);
    return o;
  };

  const errorsOf = async (o: ServerRunOptions): Promise<readonly string[]> => {
    try {
      await completeServerRunOptions(o);
    } catch (err) {
      if (err instanceof OptionsError) return err.errors;
      throw err;
    }
    return [];
  };

  it('refuses --authentication-config with --oidc-* flags, and one OIDC flag without the other', async () => {
    const both = options((o) => {
      o.authenticationConfigFile = join(dir, 'authn.yaml');
      o.oidc.issuerURL = 'https://issuer.example';
      o.oidc.clientID = 'c';
    });
    assert.deepEqual(await errorsOf(both), [
      'authentication-config file and oidc-* flags are mutually exclusive',
    ]);
    const alone = options((o) => (o.oidc.issuerURL = 'https://issuer.example'));
    assert.deepEqual(await errorsOf(alone), [
      'oidc-issuer-url and oidc-client-id must be specified together',
    ]);
  });

  it('refuses a JWT issuer that is a service account issuer', async () => {
    const path = join(dir, 'overlap.yaml');
    await writeFile(
      path,
      [
        'apiVersion: apiserver.config.k8s.io/v1beta1',
        'kind: AuthenticationConfiguration',
        'jwt:',
        '- issuer: { url: "https://kubernetes.default.svc.cluster.local", audiences: [a] }',
        '  claimMappings: { username: { claim: sub, prefix: "" } }',
      ].join('\n'),
    );
    assert.deepEqual(await errorsOf(options((o) => (o.authenticationConfigFile = path))), [
      `failed to load --authentication-config ${JSON.stringify(path)}: jwt[0].issuer.url: Invalid value: "https://kubernetes.default.svc.cluster.local": URL must not overlap with disallowed issuers: [https://kubernetes.default.svc.cluster.local]`,
    ]);
  });

  it('--anonymous-auth: true by default, off under AlwaysAllow even when given (kube ApplyAuthorization)', () => {
    assert.equal(anonymousAuthOf({ anonymousAuth: undefined, authorizationModes: ['RBAC'] }), true);
    assert.equal(anonymousAuthOf({ anonymousAuth: false, authorizationModes: ['RBAC'] }), false);
    assert.equal(anonymousAuthOf({ anonymousAuth: undefined, authorizationModes: [] }), false);
    assert.equal(anonymousAuthOf({ anonymousAuth: true, authorizationModes: [] }), false);
    assert.equal(
      anonymousAuthOf({ anonymousAuth: true, authorizationModes: ['RBAC', 'AlwaysAllow'] }),
      false,
    );
    assert.equal(
      anonymousAuthOf({ anonymousAuth: undefined, authorizationModes: ['RBAC'] }, { enabled: false }),
      false,
    );
    // The file's anonymous section is not the flag: kube does not reset it.
    assert.equal(
      anonymousAuthOf({ anonymousAuth: undefined, authorizationModes: [] }, { enabled: true }),
      true,
    );
  });

  it('warns as kube when AlwaysAllow resets --anonymous-auth', async () => {
    const warning =
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer';
    assert.equal(anonymousAuthResetWarning({ anonymousAuth: false, authorizationModes: [] }), undefined);
    assert.equal(anonymousAuthResetWarning({ anonymousAuth: true, authorizationModes: ['RBAC'] }), undefined);
    const sink = memorySink();
    await completeServerRunOptions(
      options((o) => (o.anonymousAuth = true)),
      { logSink: sink },
    );
    assert.equal(sink.lines.filter((l) => l.includes(warning)).length, 1, sink.lines.join(''));
  });
  it('takes --client-ca-file naming the CA it generates in <data-dir>/pki on the first start', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'capstan-own-client-ca-'));
    try {
      const completed = await completeServerRunOptions(
        options((o) => {
          o.storage.dataDir = fresh;
          o.securePort = 0;
          o.clientCAFile = join(fresh, 'pki', 'ca.crt');
        }),
      );
      assert.match(completed.clientCAPem, /^-----BEGIN CERTIFICATE-----/);
      assert.equal(completed.clientCAPem, completed.caPem);
      // Signed by that CA, an issued client certificate authenticates: the signer uses it.
      assert.ok('signers' in completed.signingCA);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('refuses an --authentication-token-webhook-version kube does not know, as kube', async () => {
    const config = join(dir, 'token-webhook.kubeconfig');
    await writeFile(config, 'clusters:\n- cluster:\n    server: https://127.0.0.1:1/\nusers:\n- user: {}\n');
    const o = options((x) => {
      x.authenticationTokenWebhookConfigFile = config;
      x.authenticationTokenWebhookVersion = 'v2';
    });
    assert.deepEqual(await errorsOf(o), [
      'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"',
    ]);
  });
});

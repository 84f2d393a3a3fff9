import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TokenRequest } from '../../api/authentication/v1/token-request.js';
import type { ServiceAccount } from '../../api/core/v1/service-account.js';
import { newServiceAccountREST } from '../../registry/core/serviceaccount/storage.js';
import { TokenREST } from '../../registry/core/serviceaccount/token.js';
import { signJwt } from '../../registry/core/serviceaccount/jwt.js';
import type { Store } from '../../registry/generic/store.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../../registry/generic/testing/memory-rest-options.js';
import { testContext } from '../../registry/generic/testing/widgets.js';
import { testServer } from '../testing/test-server.js';
import { serviceAccountTokenAuthenticator } from './service-account-authenticator.js';
import { loadServiceAccountKeys, type ServiceAccountKeys } from './service-account-keys.js';

const signal = new AbortController().signal;

describe('service account keys', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-sa-keys-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('generates an EC P-256 key once and reuses it; in memory nothing is written', async () => {
    const path = join(dir, 'pki', 'sa.key');
    const base = { signingKeyFile: '', keyFiles: [], issuers: [], apiAudiences: [] };
    const first = await loadServiceAccountKeys({ ...base, generatedKeyPath: path });
    const second = await loadServiceAccountKeys({ ...base, generatedKeyPath: path });
    assert.equal(first.signer.alg, 'ES256');
    assert.equal(second.signer.kid, first.signer.kid);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(first.issuers, ['https://kubernetes.default.svc.cluster.local']);
    assert.deepEqual(first.apiAudiences, first.issuers);
    const inMemory = await loadServiceAccountKeys({ ...base, generatedKeyPath: undefined });
    assert.notEqual(inMemory.signer.kid, first.signer.kid);
  });

  it('reads the signing key and verification keys from PEM files', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const other = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const signing = join(dir, 'signing.key');
    const pub = join(dir, 'keys.pem');
    await writeFile(signing, rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
    const pems = [rsa.publicKey, other.publicKey].map((k) =>
      k.export({ type: 'spki', format: 'pem' }).toString(),
    );
    await writeFile(pub, pems.join(''));
    const keys = await loadServiceAccountKeys({
      signingKeyFile: signing,
      keyFiles: [pub],
      issuers: ['https://a', 'https://b'],
      apiAudiences: ['api'],
      generatedKeyPath: undefined,
    });
    assert.equal(keys.signer.alg, 'RS256');
    assert.equal(keys.publicKeys.length, 2);
    assert.deepEqual(keys.apiAudiences, ['api']);
    await writeFile(join(dir, 'empty.pem'), 'nothing here');
    await assert.rejects(
      loadServiceAccountKeys({
        ...keys,
        signingKeyFile: signing,
        keyFiles: [join(dir, 'empty.pem')],
        generatedKeyPath: undefined,
      }),
      /does not contain any valid RSA or ECDSA public keys/,
    );
    assert.ok((await readFile(signing, 'utf8')).includes('RSA PRIVATE KEY'));
  });
});

describe('service account token authentication', () => {
  let env: MemoryRESTOptions;
  let sas: Store<ServiceAccount>;
  let keys: ServiceAccountKeys;
  let rest: TokenREST;
  const ctx = testContext('team');

  const issue = async (spec: TokenRequest['spec'] = {}): Promise<string> => {
    const obj: TokenRequest = { spec };
    const out = (await rest.createNamed(ctx, 'robot', { obj, options: {} })) as TokenRequest;
    return out.status?.token ?? '';
  };

  before(async () => {
    env = await memoryRESTOptions();
    sas = await newServiceAccountREST({ restOptionsGetter: env.getter });
    keys = await loadServiceAccountKeys({
      signingKeyFile: '',
      keyFiles: [],
      issuers: [],
      apiAudiences: [],
      generatedKeyPath: undefined,
    });
    rest = new TokenREST({
      serviceAccounts: sas,
      issuer: { signer: keys.signer, issuer: keys.issuers[0] ?? '', apiAudiences: keys.apiAudiences },
    });
    await sas.create(ctx, { metadata: { name: 'robot' } }, { options: {} });
  });
  after(() => env.close());

  it('authenticates a fresh token as the service account with its groups', async () => {
    const authenticate = serviceAccountTokenAuthenticator({ keys, getters: { serviceAccounts: sas } });
    const sa = await sas.get(ctx, 'robot', {});
    const result = await authenticate(await issue(), signal);
    assert.equal(result.kind, 'user');
    assert.equal(result.user.name, 'system:serviceaccount:team:robot');
    assert.equal(result.user.uid, sa.metadata?.uid);
    assert.deepEqual(result.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:team']);
    assert.match(result.user.extra?.['authentication.kubernetes.io/credential-id']?.[0] ?? '', /^JTI=/);
  });

  it('leaves tokens of other issuers and non-JWTs to other authenticators', async () => {
    const authenticate = serviceAccountTokenAuthenticator({ keys });
    assert.equal((await authenticate('opaque-token', signal)).kind, 'none');
    const foreign = signJwt(keys.signer, { iss: 'https://elsewhere', exp: 4e9 });
    assert.equal((await authenticate(foreign, signal)).kind, 'none');
  });

  it('refuses a bad signature, an expired token, a foreign audience and a deleted account', async () => {
    const token = await issue();
    const other = await loadServiceAccountKeys({
      signingKeyFile: '',
      keyFiles: [],
      issuers: [],
      apiAudiences: [],
      generatedKeyPath: undefined,
    });
    const wrongKey = serviceAccountTokenAuthenticator({ keys: { ...keys, publicKeys: other.publicKeys } });
    assert.deepEqual(await wrongKey(token, signal), { kind: 'invalid', reason: 'invalid signature' });
    const tampered = `${token.slice(0, -4)}AAAA`;
    assert.equal((await serviceAccountTokenAuthenticator({ keys })(tampered, signal)).kind, 'invalid');
    const later = serviceAccountTokenAuthenticator({
      keys,
      now: () => Math.floor(Date.now() / 1000) + 3600 + 61,
    });
    assert.deepEqual(await later(token, signal), {
      kind: 'invalid',
      reason: 'service account token has expired',
    });
    const vault = await issue({ audiences: ['vault'] });
    const audience = await serviceAccountTokenAuthenticator({ keys })(vault, signal);
    assert.equal(audience.kind, 'invalid');
    const withLookup = serviceAccountTokenAuthenticator({ keys, getters: { serviceAccounts: sas } });
    await sas.delete(ctx, 'robot', { options: {} });
    const gone = await withLookup(token, signal);
    assert.equal(gone.kind, 'invalid');
    await sas.create(ctx, { metadata: { name: 'robot' } }, { options: {} });
    const recreated = await withLookup(token, signal);
    assert.equal(recreated.kind, 'invalid');
    assert.match(recreated.reason, /^service account UID \(.+\) does not match claim/);
  });

  it('lets the server filter accept the token and answer 401 for a forged one', async () => {
    const token = await issue();
    const seen: string[] = [];
    const { request } = testServer({
      config: {
        tokenAuthenticators: [serviceAccountTokenAuthenticator({ keys, getters: { serviceAccounts: sas } })],
      },
      api: (scope) => {
        seen.push(scope.user?.name ?? '', ...(scope.user?.groups ?? []));
        scope.res.end('ok');
        return Promise.resolve(true);
      },
    });
    const ok = await request({ url: '/api/v1/namespaces', headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(seen, [
      'system:serviceaccount:team:robot',
      'system:serviceaccounts',
      'system:serviceaccounts:team',
      'system:authenticated',
    ]);
    const forged = await request({
      url: '/api/v1/namespaces',
      headers: { authorization: `Bearer ${token}x` },
    });
    assert.equal(forged.statusCode, 401);
  });
});

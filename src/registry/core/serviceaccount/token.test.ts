import assert from 'node:assert/strict';
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { TokenRequest } from '../../../api/authentication/v1/token-request.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPodREST, type PodStorage } from '../pod/storage.js';
import { newSecretREST } from '../secret/storage.js';
import type { Secret } from '../../../api/core/v1/secret.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import { parseJwt, newTokenSigner, verifyJwt } from './jwt.js';
import { newServiceAccountREST } from './storage.js';
import { TokenREST } from './token.js';

const issuer = 'https://issuer.test';
const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

describe('serviceaccounts/token', () => {
  let env: MemoryRESTOptions;
  let sas: Store<ServiceAccount>;
  let pods: PodStorage;
  let secrets: Store<Secret>;
  let rest: TokenREST;
  const ctx = testContext('default');
  const request = (
    spec: TokenRequest['spec'] = {},
    metadata = {},
  ): { obj: TokenRequest; options: object } => ({
    obj: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec },
    options: {},
  });

  before(async () => {
    env = await memoryRESTOptions();
    const opts = { restOptionsGetter: env.getter };
    sas = await newServiceAccountREST(opts);
    pods = await newPodREST(opts);
    secrets = await newSecretREST(opts);
    rest = new TokenREST({
      serviceAccounts: sas,
      pods: pods.pods,
      secrets,
      issuer: {
        signer: newTokenSigner(ecKey),
        issuer,
        apiAudiences: ['api-aud'],
        maxExpirationSeconds: 7200,
      },
    });
    await sas.create(ctx, { metadata: { name: 'robot' } }, { options: {} });
  });
  after(() => env.close());

  it('issues an ES256 JWT with kube claims for the service account of the URL', async () => {
    const before = Math.floor(Date.now() / 1000);
    const out = (await rest.createNamed(ctx, 'robot', request())) as TokenRequest;
    const sa = await sas.get(ctx, 'robot', {});
    assert.equal(out.kind, 'TokenRequest');
    assert.equal(out.apiVersion, 'authentication.k8s.io/v1');
    assert.equal(out.metadata?.name, 'robot');
    assert.equal(out.metadata.namespace, 'default');
    assert.deepEqual(out.spec.audiences, ['api-aud']);
    assert.equal(out.spec.expirationSeconds, 3600);
    const token = out.status?.token ?? '';
    const verified = verifyJwt(token, [createPublicKey(ecKey)]);
    assert.ok(verified.ok);
    const { header, claims } = parseJwt(token) ?? assert.fail('not a JWT');
    assert.equal(header['alg'], 'ES256');
    assert.equal(typeof header['kid'], 'string');
    assert.equal(claims['iss'], issuer);
    assert.deepEqual(claims['aud'], ['api-aud']);
    assert.equal(claims['sub'], 'system:serviceaccount:default:robot');
    assert.deepEqual(claims['kubernetes.io'], {
      namespace: 'default',
      serviceaccount: { name: 'robot', uid: sa.metadata?.uid },
    });
    const iat = claims['iat'] as number;
    assert.ok(iat >= before && iat <= before + 2);
    assert.equal(claims['nbf'], iat);
    assert.equal(claims['exp'], iat + 3600);
    assert.equal(Date.parse(out.status?.expirationTimestamp ?? ''), (iat + 3600) * 1000);
  });

  it('signs RS256 with an RSA key and keeps the requested audiences', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const rsaRest = new TokenREST({
      serviceAccounts: sas,
      issuer: { signer: newTokenSigner(rsa), issuer, apiAudiences: [] },
    });
    const out = (await rsaRest.createNamed(
      ctx,
      'robot',
      request({ audiences: ['vault'], expirationSeconds: 600 }),
    )) as TokenRequest;
    const token = out.status?.token ?? '';
    assert.equal(parseJwt(token)?.header['alg'], 'RS256');
    assert.ok(verifyJwt(token, [createPublicKey(rsa)]).ok);
    assert.equal(verifyJwt(token, [createPublicKey(ecKey)]).ok, false);
    const claims = parseJwt(token)?.claims ?? {};
    assert.deepEqual(claims['aud'], ['vault']);
    assert.equal((claims['exp'] as number) - (claims['iat'] as number), 600);
  });

  it('shortens an expiry beyond the maximum with kube warning', async () => {
    const warned = testContext('default');
    const out = (await rest.createNamed(
      warned,
      'robot',
      request({ expirationSeconds: 10_000 }),
    )) as TokenRequest;
    assert.equal(out.spec.expirationSeconds, 7200);
    assert.deepEqual(warned.warnings, ['requested expiration of 10000 seconds shortened to 7200 seconds']);
  });

  it('answers 404 for a missing service account and 422 for a short expiry or another name', async () => {
    await rejectsWithStatus(rest.createNamed(ctx, 'nope', request()), {
      code: 404,
      reason: 'NotFound',
      message: 'serviceaccounts "nope" not found',
    });
    await rejectsWithStatus(rest.createNamed(ctx, 'robot', request({ expirationSeconds: 60 })), {
      code: 422,
      reason: 'Invalid',
      message:
        'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    });
    await rejectsWithStatus(rest.createNamed(ctx, 'robot', request({}, { name: 'other' })), {
      code: 422,
      reason: 'Invalid',
      message:
        'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    });
  });

  it('binds to a pod of the same service account or a secret, as kube checks them', async () => {
    const pod = await pods.pods.create(
      ctx,
      {
        metadata: { name: 'p' },
        spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'x' }] },
      },
      { options: {} },
    );
    const out = (await rest.createNamed(
      ctx,
      'robot',
      request({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p' } }),
    )) as TokenRequest;
    const claims = parseJwt(out.status?.token ?? '')?.claims ?? {};
    assert.deepEqual((claims['kubernetes.io'] as Record<string, unknown>)['pod'], {
      name: 'p',
      uid: pod.metadata?.uid,
    });
    await pods.pods.create(
      ctx,
      { metadata: { name: 'q' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      { options: {} },
    );
    await rejectsWithStatus(
      rest.createNamed(
        ctx,
        'robot',
        request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'q' } }),
      ),
      {
        code: 400,
        reason: 'BadRequest',
        message:
          'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
      },
    );
    await rejectsWithStatus(
      rest.createNamed(
        ctx,
        'robot',
        request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'stale' } }),
      ),
      {
        code: 409,
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on Pod "p": the UID in the bound object reference (stale) does not match the UID in record. The object might have been deleted and then recreated',
      },
    );
    await secrets.create(ctx, { metadata: { name: 's' } }, { options: {} });
    const bySecret = (await rest.createNamed(
      ctx,
      'robot',
      request({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's' } }),
    )) as TokenRequest;
    const kube = parseJwt(bySecret.status?.token ?? '')?.claims['kubernetes.io'] as Record<string, unknown>;
    assert.equal((kube['secret'] as { name: string }).name, 's');
    await rejectsWithStatus(
      rest.createNamed(
        ctx,
        'robot',
        request({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } }),
      ),
      {
        code: 400,
        reason: 'BadRequest',
        message: 'cannot bind token to object of type /v1, Kind=ConfigMap',
      },
    );
  });
});

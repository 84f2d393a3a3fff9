import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Secret } from '../../../api/core/v1/secret.js';
import { makeTlsFiles, opensslInstalled } from '../../../storage/backends/etcd3/testing/tls-certs.js';
import type { Store } from '../../generic/store.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { unmarshalObjectError } from './go-json-error.js';
import { newSecretREST } from './storage.js';
import { x509KeyPairError } from './tls-key-pair.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (name: string, more: Partial<Secret> = {}): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  ...more,
});
const put = (obj: Secret): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('secrets', () => {
  let env: MemoryRESTOptions;
  let store: Store<Secret>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newSecretREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('merges stringData into data, defaults the type, and prints NAME TYPE DATA AGE', async () => {
    const out = await store.create(
      ctx,
      secret('s1', { data: { a: b64('x') }, stringData: { a: 'over', b: 'new' } }),
      {
        options: {},
      },
    );
    assert.deepEqual(out.data, { a: b64('over'), b: b64('new') });
    assert.equal(out.stringData, undefined);
    assert.equal(out.type, 'Opaque');
    const table = store.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Type', 'Data', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells.slice(0, 3), ['s1', 'Opaque', 2]);
  });

  it('requires the keys each type needs', async () => {
    const invalid = async (s: Secret, message: string): Promise<void> => {
      await rejectsWithStatus(store.create(ctx, s, { options: {} }), {
        code: 422,
        reason: 'Invalid',
        message,
      });
    };
    await invalid(
      secret('t', { type: 'kubernetes.io/tls' }),
      'Secret "t" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]',
    );
    await invalid(
      secret('sa', { type: 'kubernetes.io/service-account-token' }),
      'Secret "sa" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value',
    );
    await invalid(
      secret('ba', { type: 'kubernetes.io/basic-auth' }),
      'Secret "ba" is invalid: [data[username]: Required value, data[password]: Required value]',
    );
    await invalid(
      secret('ssh', { type: 'kubernetes.io/ssh-auth', data: { 'ssh-privatekey': '' } }),
      'Secret "ssh" is invalid: data[ssh-privatekey]: Required value',
    );
    await invalid(
      secret('dc', { type: 'kubernetes.io/dockercfg' }),
      'Secret "dc" is invalid: data[.dockercfg]: Required value',
    );
    await invalid(
      secret('dcj', {
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': b64('{"auths":') },
      }),
      'Secret "dcj" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    );
    await invalid(
      secret('big', { data: { a: b64('x'.repeat(1024 * 1024 + 1)) } }),
      'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes',
    );
    const ok = await store.create(ctx, secret('bt', { type: 'bootstrap.kubernetes.io/token' }), {
      options: {},
    });
    assert.equal(ok.type, 'bootstrap.kubernetes.io/token');
  });

  it('keeps the type, and the data of an immutable secret', async () => {
    const created = await store.create(
      ctx,
      secret('imm', { type: 'kubernetes.io/basic-auth', data: { username: b64('u') }, immutable: true }),
      {
        options: {},
      },
    );
    await rejectsWithStatus(store.update(ctx, 'imm', put({ ...created, type: 'Opaque' })), {
      code: 422,
      reason: 'Invalid',
      message: 'Secret "imm" is invalid: type: Invalid value: "Opaque": field is immutable',
    });
    await rejectsWithStatus(store.update(ctx, 'imm', put({ ...created, stringData: { username: 'v' } })), {
      code: 422,
      reason: 'Invalid',
      message: 'Secret "imm" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    });
  });

  it('selects by type', async () => {
    const list = await store.list(testContext(''), { fieldSelector: 'type=kubernetes.io/basic-auth' });
    assert.deepEqual(
      list.items.map((s) => s.metadata?.name),
      ['imm'],
    );
    await rejectsWithStatus(store.list(testContext(''), { fieldSelector: 'data=x' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: data',
    });
  });

  it('warns about a TLS key that does not fit its certificate', async (t) => {
    const bad = await store.create(
      ctx,
      secret('tls-bad', {
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': b64('nope'), 'tls.key': b64('nope') },
      }),
      { options: {} },
    );
    assert.equal(bad.type, 'kubernetes.io/tls');
    if (!opensslInstalled()) {
      t.skip('openssl is not installed');
      return;
    }
    const files = makeTlsFiles();
    try {
      const cert = readFileSync(files.serverCertFile, 'utf8');
      assert.equal(x509KeyPairError(cert, readFileSync(files.serverKeyFile, 'utf8')), undefined);
      const wctx = testContext('default');
      await store.create(
        wctx,
        secret('tls-mismatch', {
          type: 'kubernetes.io/tls',
          data: { 'tls.crt': b64(cert), 'tls.key': b64(readFileSync(files.clientKeyFile, 'utf8')) },
        }),
        { options: {} },
      );
      assert.deepEqual(wctx.warnings, ['tls: private key does not match public key']);
      assert.equal(
        x509KeyPairError(readFileSync(files.serverKeyFile, 'utf8'), cert),
        'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      );
    } finally {
      files.remove();
    }
  });

  it('reports TLS input errors as Go does', () => {
    assert.equal(x509KeyPairError('', ''), 'tls: failed to find any PEM data in certificate input');
  });
});

describe('unmarshalObjectError', () => {
  it('gives encoding/json messages', () => {
    assert.equal(unmarshalObjectError('{"auths":{}}'), undefined);
    assert.equal(unmarshalObjectError('null'), undefined);
    assert.equal(unmarshalObjectError(''), 'unexpected end of JSON input');
    assert.equal(unmarshalObjectError('x'), "invalid character 'x' looking for beginning of value");
    assert.equal(
      unmarshalObjectError('{x'),
      "invalid character 'x' looking for beginning of object key string",
    );
    assert.equal(unmarshalObjectError('{"a" 1}'), "invalid character '1' after object key");
    assert.equal(unmarshalObjectError('{"a":1 "b"'), "invalid character '\"' after object key:value pair");
    assert.equal(unmarshalObjectError('[1 2]'), "invalid character '2' after array element");
    assert.equal(unmarshalObjectError('{} x'), "invalid character 'x' after top-level value");
    assert.equal(unmarshalObjectError('tru'), 'unexpected end of JSON input');
    assert.equal(unmarshalObjectError('trUe'), "invalid character 'U' in literal true (expecting 'u')");
    assert.equal(
      unmarshalObjectError('[1]'),
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
    assert.equal(
      unmarshalObjectError('"s"'),
      'json: cannot unmarshal string into Go value of type map[string]interface {}',
    );
  });
});

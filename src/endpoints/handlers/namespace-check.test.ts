// A body naming another namespace than the URL is refused with the same 400 Status by POST and PUT.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { coreAPI, type CoreAPI } from '../testing/core-api.js';

const json = { 'content-type': 'application/json' };
const configMap = (namespace: string): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace } });

describe('the namespace of a request body', () => {
  let api: CoreAPI;
  before(async () => {
    api = await coreAPI();
  });
  after(() => api.close());

  it('must be the URL namespace on create and on update', async () => {
    const url = '/api/v1/namespaces/a/configmaps';
    const created = await api.request({ method: 'POST', url, payload: configMap('b'), headers: json });
    assert.equal(
      (await api.request({ method: 'POST', url, payload: configMap('a'), headers: json })).statusCode,
      201,
    );
    const updated = await api.request({
      method: 'PUT',
      url: `${url}/c`,
      payload: configMap('b'),
      headers: json,
    });
    const want = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
      reason: 'BadRequest',
      code: 400,
    };
    assert.equal(created.statusCode, 400);
    assert.deepEqual(created.json(), want);
    assert.equal(updated.statusCode, 400);
    assert.deepEqual(updated.json(), want);
  });
});

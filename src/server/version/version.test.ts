import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testServer } from '../testing/test-server.js';

describe('/version', () => {
  it('reports Kubernetes 1.33 in version.Info shape, to anonymous clients too', async () => {
    const res = await testServer({ config: { anonymousAuth: true } }).request('/version');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    const info = res.json<Record<string, string>>();
    assert.equal(info['major'], '1');
    assert.equal(info['minor'], '33');
    assert.match(info['gitVersion'] ?? '', /^v1\.33\.0\+capstan\.\d+\.\d+\.\d+$/);
    assert.deepEqual(Object.keys(info), [
      'major',
      'minor',
      'emulationMajor',
      'emulationMinor',
      'minCompatibilityMajor',
      'minCompatibilityMinor',
      'gitVersion',
      'gitCommit',
      'gitTreeState',
      'buildDate',
      'goVersion',
      'compiler',
      'platform',
    ]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpretTypeMeta } from './type-meta.js';

describe('interpretTypeMeta', () => {
  it('reads group, version and kind', () => {
    assert.deepEqual(interpretTypeMeta({ apiVersion: 'apps/v1', kind: 'Deployment' }), {
      ok: true,
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
    });
    assert.deepEqual(interpretTypeMeta({ apiVersion: 'v1' }), {
      ok: true,
      group: '',
      version: 'v1',
      kind: '',
    });
    assert.deepEqual(interpretTypeMeta({ APIVERSION: 'v1', Kind: 'Pod' }), {
      ok: true,
      group: '',
      version: 'v1',
      kind: 'Pod',
    });
  });

  it('reports errors with kube texts', () => {
    assert.deepEqual(interpretTypeMeta({ kind: 5 }), {
      ok: false,
      error:
        "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    });
    assert.deepEqual(interpretTypeMeta([]), {
      ok: false,
      error:
        'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    });
    assert.deepEqual(interpretTypeMeta({ apiVersion: 'a/b/c' }), {
      ok: false,
      error: 'unexpected GroupVersion string: a/b/c',
    });
  });
});

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import { StructuralDecoder } from './decoder.js';

const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);

it('decodes a null element of a list of structs as Go does: an empty struct for validation to judge', () => {
  const pod = scheme.kindFor('v1', 'Pod');
  if (pod === undefined) throw new Error('Pod');
  const body = { apiVersion: 'v1', kind: 'Pod', spec: { containers: [null], volumes: [null, { name: 'v' }] } };
  const res = decoder.decodeText(JSON.stringify(body), pod, { fieldValidation: 'Strict' });
  assert.equal(res.error, undefined);
  const spec = (res.object as { spec: { containers: unknown[]; volumes: unknown[] } }).spec;
  assert.equal(typeof spec.containers[0], 'object');
  assert.notEqual(spec.containers[0], null);
  assert.notEqual(spec.volumes[0], null);
  assert.deepEqual(spec.volumes[1], { name: 'v' });
});

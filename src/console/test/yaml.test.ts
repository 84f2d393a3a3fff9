import { it } from 'node:test';
import assert from 'node:assert/strict';
import { splitManagedFields, toYaml } from '../yaml.js';

it('writes block YAML, lists of maps with the first key on the dash line', () => {
  assert.equal(
    toYaml({
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', ports: [80] }] },
    }),
    [
      'metadata:',
      '  name: web',
      '  labels:',
      '    app: web',
      'spec:',
      '  containers:',
      '  - name: c',
      '    ports:',
      '    - 80',
      '',
    ].join('\n'),
  );
});

it('quotes strings a YAML reader would take for something else', () => {
  assert.equal(
    toYaml({ a: 'true', b: 'no', c: '1', d: '', e: 'a: b', f: 'x\ny', g: '~', h: 'plain-word.v1' }),
    [
      'a: "true"',
      'b: "no"',
      'c: "1"',
      'd: ""',
      'e: "a: b"',
      'f: "x\\ny"',
      'g: "~"',
      'h: plain-word.v1',
      '',
    ].join('\n'),
  );
  assert.equal(toYaml({ num: 1, t: true, z: null, n: 'x' }), 'num: 1\nt: true\nz: null\n"n": x\n');
  assert.equal(toYaml(['.5', '.inf', 'Y', 'n', '.hidden']), '- ".5"\n- ".inf"\n- "Y"\n- "n"\n- .hidden\n');
  assert.equal(
    toYaml({ 'app.kubernetes.io/name': 'x', '1': 'one' }),
    '"1": one\napp.kubernetes.io/name: x\n',
  );
});

it('writes empty maps and lists inline, and scalars alone', () => {
  assert.equal(toYaml({ m: {}, l: [], nested: [[], {}] }), 'm: {}\nl: []\nnested:\n- []\n- {}\n');
  assert.equal(toYaml('word'), 'word\n');
  assert.equal(toYaml(null), 'null\n');
});

it('folds managedFields apart from the object, leaving the rest of metadata', () => {
  const managed = [{ manager: 'kubectl', operation: 'Apply' }];
  const obj = { kind: 'Pod', metadata: { name: 'web', managedFields: managed } };
  const { rest, managed: got } = splitManagedFields(obj);
  assert.deepEqual(rest, { kind: 'Pod', metadata: { name: 'web' } });
  assert.deepEqual(got, managed);
  assert.doesNotMatch(toYaml(rest), /managedFields|kubectl/);
  // The object shown is not changed.
  assert.deepEqual(obj.metadata.managedFields, managed);
  assert.deepEqual(splitManagedFields({ kind: 'Pod' }), { rest: { kind: 'Pod', metadata: {} }, managed: [] });
});

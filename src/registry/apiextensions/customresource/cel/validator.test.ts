import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { compileCustomResourceRules } from './compile.js';
import type { CustomResourceRuleValidator } from './validator.js';

async function validatorFor(schema: JSONSchemaProps): Promise<CustomResourceRuleValidator> {
  const { errors, validator } = await compileCustomResourceRules(schema);
  assert.deepEqual(
    errors.map((e) => e.error()),
    [],
  );
  assert.ok(validator !== undefined);
  return validator;
}

const run = (
  v: CustomResourceRuleValidator,
  obj: Record<string, unknown>,
  old?: Record<string, unknown>,
): string[] => v.validate(obj, old).map((e) => e.error());

const spec = (
  props: Record<string, JSONSchemaProps>,
  rules: NonNullable<JSONSchemaProps['x-kubernetes-validations']>,
): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: props, 'x-kubernetes-validations': rules } },
});

describe('CustomResourceRuleValidator', () => {
  it('evaluates rules on objects with typed ints, doubles and strings', async () => {
    const v = await validatorFor(
      spec(
        {
          min: { type: 'integer' },
          max: { type: 'integer' },
          ratio: { type: 'number' },
          name: { type: 'string' },
        },
        [
          { rule: 'self.min <= self.max' },
          { rule: 'self.ratio < 1.0', message: 'ratio must be below 1' },
          { rule: "self.name.matches('^[a-z]+$') && self.name.size() < 10" },
        ],
      ),
    );
    assert.deepEqual(run(v, { spec: { min: 1, max: 2, ratio: 0.5, name: 'abc' } }), []);
    assert.deepEqual(run(v, { spec: { min: 3, max: 2, ratio: 2, name: 'A' } }), [
      'spec: Invalid value: "object": failed rule: self.min <= self.max',
      'spec: Invalid value: "object": ratio must be below 1',
      'spec: Invalid value: "object": failed rule: self.name.matches(\'^[a-z]+$\') && self.name.size() < 10',
    ]);
  });

  it('reports a missing field as kube does', async () => {
    const v = await validatorFor(spec({ a: { type: 'integer' } }, [{ rule: 'self.a > 0' }]));
    assert.deepEqual(run(v, { spec: {} }), [
      'spec: Invalid value: "object": no such key: a evaluating rule: self.a > 0',
    ]);
  });

  it('evaluates rules on lists, list items, maps and strings', async () => {
    const v = await validatorFor({
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          maxItems: 10,
          items: {
            type: 'string',
            maxLength: 63,
            'x-kubernetes-validations': [{ rule: 'self.startsWith("t-")' }],
          },
          'x-kubernetes-validations': [{ rule: 'self.isSorted()' }, { rule: 'self.size() <= 3' }],
        },
        labels: {
          type: 'object',
          maxProperties: 10,
          additionalProperties: { type: 'string' },
          'x-kubernetes-validations': [{ rule: "self.all(k, self[k] != '')", message: 'empty label' }],
        },
        counts: {
          type: 'array',
          maxItems: 10,
          items: { type: 'integer' },
          'x-kubernetes-validations': [{ rule: 'self.sum() < 10' }],
        },
      },
    });
    assert.deepEqual(run(v, { tags: ['t-a', 't-b'], labels: { a: 'x' }, counts: [1, 2] }), []);
    assert.deepEqual(run(v, { tags: ['t-b', 'a', 't-c', 't-d'], labels: { a: '' }, counts: [5, 6] }), [
      'tags: Invalid value: "array": failed rule: self.isSorted()',
      'tags: Invalid value: "array": failed rule: self.size() <= 3',
      'tags[1]: Invalid value: "string": failed rule: self.startsWith("t-")',
      'labels: Invalid value: "object": empty label',
      'counts: Invalid value: "array": failed rule: self.sum() < 10',
    ]);
  });

  it('runs transition rules only on update with an old value', async () => {
    const v = await validatorFor({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            id: {
              type: 'string',
              'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'id is immutable' }],
            },
            n: {
              type: 'integer',
              'x-kubernetes-validations': [
                {
                  rule: '!oldSelf.hasValue() || self >= oldSelf.value()',
                  optionalOldSelf: true,
                  message: 'n may only grow',
                },
              ],
            },
          },
        },
      },
    });
    assert.deepEqual(run(v, { spec: { id: 'a', n: 1 } }), []);
    assert.deepEqual(run(v, { spec: { id: 'b', n: 2 } }, { spec: { id: 'b', n: 1 } }), []);
    assert.deepEqual(run(v, { spec: { id: 'b', n: 2 } }, { spec: { n: 1 } }), []);
    assert.deepEqual(run(v, { spec: { id: 'c', n: 0 } }, { spec: { id: 'b', n: 1 } }), [
      'spec.id: Invalid value: "string": id is immutable',
      'spec.n: Invalid value: "integer": n may only grow',
    ]);
  });

  it('correlates map-list items by key for oldSelf', async () => {
    const v = await validatorFor({
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
            'x-kubernetes-validations': [{ rule: 'self.port == oldSelf.port' }],
          },
        },
      },
    });
    const old = {
      ports: [
        { name: 'a', port: 1 },
        { name: 'b', port: 2 },
      ],
    };
    assert.deepEqual(
      run(
        v,
        {
          ports: [
            { name: 'b', port: 2 },
            { name: 'a', port: 1 },
            { name: 'c', port: 9 },
          ],
        },
        old,
      ),
      [],
    );
    assert.deepEqual(run(v, { ports: [{ name: 'b', port: 3 }] }, old), [
      'ports[0]: Invalid value: "object": failed rule: self.port == oldSelf.port',
    ]);
  });

  it('a new map entry keyed like an Object.prototype member has no old value', async () => {
    const v = await validatorFor({
      type: 'object',
      properties: {
        labels: {
          type: 'object',
          maxProperties: 10,
          additionalProperties: {
            type: 'string',
            maxLength: 63,
            'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'entries are immutable' }],
          },
        },
      },
    });
    const obj = JSON.parse('{"labels":{"a":"1","constructor":"2","toString":"3","__proto__":"4"}}') as Record<
      string,
      unknown
    >;
    assert.deepEqual(run(v, obj, { labels: { a: '1' } }), []);
  });

  it('uses messageExpression, reason and fieldPath', async () => {
    const v = await validatorFor(
      spec({ replicas: { type: 'integer' }, name: { type: 'string' } }, [
        // kube refuses `'…' + string(self.replicas)`: string() of an int has no size bound.
        {
          rule: 'self.replicas < 5',
          messageExpression: "'too many replicas: ' + (self.replicas > 5 ? 'over five' : 'five')",
        },
        {
          rule: 'has(self.name)',
          reason: 'FieldValueRequired',
          fieldPath: '.name',
          message: 'name is required',
        },
        { rule: 'self.replicas != 7', reason: 'FieldValueForbidden', message: 'seven is forbidden' },
        { rule: 'self.replicas != 7', reason: 'FieldValueDuplicate' },
        { rule: 'self.replicas < 0', messageExpression: 'self.name', message: 'static message' },
      ]),
    );
    assert.deepEqual(run(v, { spec: { replicas: 7 } }), [
      'spec: Invalid value: "object": too many replicas: over five',
      'spec.name: Required value: name is required',
      'spec: Forbidden: seven is forbidden',
      'spec: Duplicate value: "object"',
      'spec: Invalid value: "object": static message',
    ]);
  });

  it('sees only name and generateName of the root metadata', async () => {
    const root = (rule: string): JSONSchemaProps => ({
      type: 'object',
      properties: { metadata: { type: 'object' } },
      'x-kubernetes-validations': [{ rule }],
    });
    const v = await validatorFor(root("self.metadata.name.startsWith('ok-')"));
    assert.deepEqual(run(v, { metadata: { name: 'ok-1', labels: { a: 'b' } } }), []);
    assert.deepEqual(run(v, { metadata: { name: 'bad' } }), [
      '<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith(\'ok-\')',
    ]);
    // oldSelf is the old object seen the same way: a change of labels alone changes nothing.
    const frozen = await validatorFor(root('self == oldSelf'));
    const old = { metadata: { name: 'ok-1', labels: { a: 'b' } } };
    assert.deepEqual(run(frozen, { metadata: { name: 'ok-1', labels: { a: 'c' } } }, old), []);
    assert.deepEqual(run(frozen, { metadata: { name: 'ok-2' } }, old), [
      '<nil>: Invalid value: "object": failed rule: self == oldSelf',
    ]);
    const { errors } = await compileCustomResourceRules(root('self.metadata.labels.size() == 0'));
    assert.deepEqual(
      errors.map((e) => e.detail),
      [
        "compilation failed: ERROR: <input>:1:14: undefined field 'labels'\n | self.metadata.labels.size() == 0\n | .............^",
      ],
    );
  });

  it('sees date and date-time strings as timestamps, durations as durations and byte strings as bytes', async () => {
    const v = await validatorFor(
      spec(
        {
          start: { type: 'string', format: 'date-time' },
          end: { type: 'string', format: 'date-time' },
          day: { type: 'string', format: 'date' },
          timeout: { type: 'string', format: 'duration' },
          key: { type: 'string', format: 'byte' },
        },
        [
          { rule: 'self.start < self.end', message: 'start after end' },
          { rule: 'self.end - self.start <= duration("24h")', message: 'longer than a day' },
          { rule: "self.day > timestamp('2020-01-01T00:00:00Z')", message: 'too early' },
          { rule: "self.timeout <= duration('1h')", message: 'timeout too long' },
          { rule: 'size(self.key) == 2', message: 'key is not 2 bytes' },
        ],
      ),
    );
    const good = {
      start: '2024-05-01T10:00:00+02:00',
      end: '2024-05-01T09:00:00Z',
      day: '2024-05-01',
      timeout: '30m',
      key: 'aGk=',
    };
    assert.deepEqual(run(v, { spec: good }), []);
    const bad = {
      start: '2024-05-02T00:00:00Z',
      end: '2024-05-01T00:00:00Z',
      day: '2019-12-31',
      timeout: '2d',
      key: 'aGkh',
    };
    assert.deepEqual(run(v, { spec: bad }), [
      'spec: Invalid value: "object": start after end',
      'spec: Invalid value: "object": too early',
      'spec: Invalid value: "object": timeout too long',
      'spec: Invalid value: "object": key is not 2 bytes',
    ]);
  });

  it("calls kube's quantity library", async () => {
    const v = await validatorFor(
      spec({ memory: { type: 'string', maxLength: 20 } }, [
        {
          rule: "isQuantity(self.memory) && quantity(self.memory).compareTo(quantity('1Gi')) <= 0",
          message: 'at most 1Gi',
        },
      ]),
    );
    assert.deepEqual(run(v, { spec: { memory: '512Mi' } }), []);
    assert.deepEqual(run(v, { spec: { memory: '1073741824' } }), []);
    assert.deepEqual(run(v, { spec: { memory: '2G' } }), ['spec: Invalid value: "object": at most 1Gi']);
    assert.deepEqual(run(v, { spec: { memory: 'lots' } }), ['spec: Invalid value: "object": at most 1Gi']);
  });

  it('names properties as kube escapes them, and leaves undeclared and null members out', async () => {
    const v = await validatorFor(
      spec(
        {
          'max-size': { type: 'integer' },
          namespace: { type: 'string' },
          'a.b': { type: 'string', nullable: true },
        },
        [
          { rule: 'self.max__dash__size <= 10', message: 'too big' },
          { rule: "self.__namespace__ != 'kube-system'", message: 'reserved namespace' },
          { rule: '!has(self.a__dot__b)', message: 'a.b is set' },
        ],
      ),
    );
    assert.deepEqual(run(v, { spec: { 'max-size': 3, namespace: 'x', 'a.b': null, other: 1 } }), []);
    assert.deepEqual(run(v, { spec: { 'max-size': 30, namespace: 'kube-system', 'a.b': 'y' } }), [
      'spec: Invalid value: "object": too big',
      'spec: Invalid value: "object": reserved namespace',
      'spec: Invalid value: "object": a.b is set',
    ]);
    const { errors } = await compileCustomResourceRules(
      spec({ namespace: { type: 'string' } }, [{ rule: "self.namespace == 'x'" }]),
    );
    assert.deepEqual(
      errors.map((e) => e.detail),
      [
        "compilation failed: ERROR: <input>:1:5: undefined field 'namespace'\n | self.namespace == 'x'\n | ....^",
      ],
    );
  });

  it('stops at a rule past the per-call cost limit, with kube’s error', async () => {
    const quadratic = 'self.l.all(a, self.l.all(b, a == b || a != b))';
    const v = await validatorFor(
      spec({ l: { type: 'array', maxItems: 500, items: { type: 'integer' } } }, [
        { rule: quadratic },
        { rule: 'false', message: 'later' },
      ]),
    );
    const l = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
    assert.deepEqual(run(v, { spec: { l: l(50) } }), ['spec: Invalid value: "object": later']);
    assert.deepEqual(run(v, { spec: { l: l(500) } }), [
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${quadratic}`,
    ]);
  });

  it('stops when an object’s rules have spent the runtime budget, before its children', async () => {
    // Each costs 2 + 100,000 × 5 + 1 (a tenth of the string times a tenth of the substring): the
    // 20th passes kube's 10M budget.
    const rule = `!self.s.contains('${'b'.repeat(41)}')`;
    const v = await validatorFor(
      spec(
        {
          s: { type: 'string', maxLength: 1_000_000 },
          x: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'false', message: 'child' }] },
        },
        Array.from({ length: 20 }, () => ({ rule })),
      ),
    );
    assert.deepEqual(run(v, { spec: { s: 'a'.repeat(1_000_000), x: 1 } }), [
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
    assert.deepEqual(run(v, { spec: { s: 'a'.repeat(100_000), x: 1 } }), [
      'spec.x: Invalid value: "integer": child',
    ]);
  });
});

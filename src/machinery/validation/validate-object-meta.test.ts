import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ObjectMeta } from '../../api/meta.js';
import { toAggregate } from './error-list.js';
import { newPath } from './field-path.js';
import { nameIsDNSLabel, nameIsDNSSubdomain, type ValidateNameFunc } from './name-validators.js';
import { validatePathSegmentName } from './path-segment.js';
import { dnsLabelMsg, labelValueMsg, namePartMsg, subdomainMsg } from './testing/kube-messages.js';
import { annotationsSize, validateAnnotations } from './validate-annotations.js';
import { validateLabels } from './validate-labels.js';
import { validateObjectMeta, type ValidateObjectMetaOptions } from './validate-object-meta.js';

const namespaced: ValidateObjectMetaOptions = { requiresNamespace: true, validateName: nameIsDNSSubdomain };
const clusterScoped: ValidateObjectMetaOptions = {
  requiresNamespace: false,
  validateName: nameIsDNSSubdomain,
};

interface Case {
  name: string;
  meta: ObjectMeta;
  options?: ValidateObjectMetaOptions;
  want: string[];
}

const cases: Case[] = [
  { name: 'valid namespaced object', meta: { name: 'web', namespace: 'default' }, want: [] },
  { name: 'valid cluster-scoped object', meta: { name: 'node-1' }, options: clusterScoped, want: [] },
  {
    name: 'nothing given',
    meta: {},
    want: [
      'metadata.name: Required value: name or generateName is required',
      'metadata.namespace: Required value',
    ],
  },
  {
    name: 'namespace on a cluster-scoped kind',
    meta: { name: 'n', namespace: 'default' },
    options: clusterScoped,
    want: ['metadata.namespace: Forbidden: not allowed on this type'],
  },
  {
    name: 'invalid name',
    meta: { name: 'Web', namespace: 'default' },
    want: [`metadata.name: Invalid value: "Web": ${subdomainMsg}`],
  },
  {
    name: 'name too long',
    meta: { name: 'a'.repeat(254), namespace: 'default' },
    want: [`metadata.name: Invalid value: "${'a'.repeat(254)}": must be no more than 253 characters`],
  },
  {
    name: 'generateName checked as a prefix, name still required',
    meta: { generateName: 'Web-', namespace: 'default' },
    want: [
      `metadata.generateName: Invalid value: "Web-": ${subdomainMsg}`,
      'metadata.name: Required value: name or generateName is required',
    ],
  },
  {
    name: 'generateName with trailing dash is fine',
    meta: { generateName: 'web-', name: 'web-x1', namespace: 'd' },
    want: [],
  },
  {
    name: 'invalid namespace name',
    meta: { name: 'web', namespace: 'Bad_NS' },
    want: [`metadata.namespace: Invalid value: "Bad_NS": ${dnsLabelMsg}`],
  },
  {
    name: 'namespace with dots',
    meta: { name: 'web', namespace: 'a.b' },
    want: ['metadata.namespace: Invalid value: "a.b": must not contain dots'],
  },
  {
    name: 'negative generation',
    meta: { name: 'web', namespace: 'd', generation: -1 },
    want: ['metadata.generation: Invalid value: -1: must be greater than or equal to 0'],
  },
  {
    name: 'bad label key and value',
    meta: { name: 'web', namespace: 'd', labels: { 'a:b': 'ok', app: 'a b' } },
    want: [
      `metadata.labels: Invalid value: "a:b": ${namePartMsg}`,
      `metadata.labels: Invalid value: "a b": ${labelValueMsg}`,
    ],
  },
  {
    name: 'bad annotation key',
    meta: { name: 'web', namespace: 'd', annotations: { 'a b': '' } },
    want: [`metadata.annotations: Invalid value: "a b": ${namePartMsg}`],
  },
  {
    name: 'bad finalizer name',
    meta: { name: 'web', namespace: 'd', finalizers: ['example.com/x', 'a b'] },
    want: [`metadata.finalizers: Invalid value: "a b": ${namePartMsg}`],
  },
  {
    name: 'orphan and foregroundDeletion together',
    meta: { name: 'web', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] },
    want: [
      'metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
    ],
  },
  {
    name: 'incomplete owner reference',
    meta: { name: 'web', namespace: 'd', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] },
    want: [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ],
  },
  {
    name: 'unparsable owner apiVersion',
    meta: {
      name: 'web',
      namespace: 'd',
      ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }],
    },
    want: ['metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty'],
  },
  {
    name: 'an Event as owner',
    meta: {
      name: 'web',
      namespace: 'd',
      ownerReferences: [{ uid: 'u', name: 'e', kind: 'Event', apiVersion: 'v1' }],
    },
    want: [
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
    ],
  },
  {
    name: 'two controllers',
    meta: {
      name: 'web',
      namespace: 'd',
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
      ],
    },
    want: [
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"1","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
    ],
  },
  {
    name: 'managed fields with unknown operation and type',
    meta: {
      name: 'web',
      namespace: 'd',
      managedFields: [{ manager: 'm', operation: 'Bogus' as 'Apply', fieldsType: 'FieldsV2' }],
    },
    want: [
      'metadata.managedFields.operation: Invalid value: "Bogus": must be `Apply` or `Update`',
      'metadata.managedFields.fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
    ],
  },
  {
    name: 'path segment names allow capitals but not slashes',
    meta: { name: 'a/B', namespace: 'd' },
    options: { requiresNamespace: true, validateName: validatePathSegmentName },
    want: [`metadata.name: Invalid value: "a/B": may not contain '/'`],
  },
  {
    name: 'other path and name rule',
    meta: { name: 'a.b' },
    options: {
      requiresNamespace: false,
      validateName: nameIsDNSLabel,
      path: newPath('spec', 'template', 'metadata'),
    },
    want: ['spec.template.metadata.name: Invalid value: "a.b": must not contain dots'],
  },
];

describe('validateObjectMeta', () => {
  for (const c of cases) {
    test(c.name, () => {
      const errs = validateObjectMeta(c.meta, c.options ?? namespaced);
      assert.deepEqual(
        errs.map((e) => e.error()),
        c.want,
      );
    });
  }

  test('aggregates like kube', () => {
    assert.equal(
      toAggregate(validateObjectMeta({}, namespaced))?.error(),
      '[metadata.name: Required value: name or generateName is required, metadata.namespace: Required value]',
    );
  });

  test('name functions see the prefix flag', () => {
    const seen: [string, boolean][] = [];
    const spy: ValidateNameFunc = (name, prefix) => {
      seen.push([name, prefix]);
      return [];
    };
    validateObjectMeta({ generateName: 'g-', name: 'g-1' }, { requiresNamespace: false, validateName: spy });
    assert.deepEqual(seen, [
      ['g-', true],
      ['g-1', false],
    ]);
  });
});

describe('validateLabels and validateAnnotations', () => {
  const labelsPath = newPath('metadata', 'labels');
  const annotationsPath = newPath('metadata', 'annotations');

  test('labels: all errors sit at the map path', () => {
    assert.deepEqual(
      validateLabels({ '/x': 'v', k: '-' }, labelsPath).map((e) => e.error()),
      [
        'metadata.labels: Invalid value: "/x": prefix part must be non-empty',
        `metadata.labels: Invalid value: "-": ${labelValueMsg}`,
      ],
    );
  });

  test('annotation keys ignore case', () => {
    assert.deepEqual(validateAnnotations({ 'Example.COM/Some-Key': 'x' }, annotationsPath), []);
  });

  test('annotations up to 256 KiB in total are fine', () => {
    const annotations = { k: 'v'.repeat(256 * 1024 - 1) };
    assert.equal(annotationsSize(annotations), 262144);
    assert.deepEqual(validateAnnotations(annotations, annotationsPath), []);
  });

  test('annotations over 256 KiB are too long', () => {
    const annotations = { k: 'v'.repeat(256 * 1024 - 2), k2: '' };
    assert.deepEqual(
      validateAnnotations(annotations, annotationsPath).map((e) => e.error()),
      ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    );
  });

  test('annotation size counts UTF-8 bytes', () => {
    assert.equal(annotationsSize({ k: 'é' }), 3);
  });
});

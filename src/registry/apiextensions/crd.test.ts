import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { newCustomResourceDefinitionREST } from './storage.js';
import { ctx, cronTab, cronTabSchema, invalid } from './testing/crontab.js';
import { loadCel } from './customresource/cel/load.js';
import { validateCRD, validateCRDUpdate } from './validation.js';

/** A CronTab CRD of one version with the given schema. */
const withSchema = (s: JSONSchemaProps): CustomResourceDefinition =>
  cronTab({ versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: s } }] });

describe('apiextensions.k8s.io customresourcedefinitions', () => {
  let env: MemoryRESTOptions;
  let crds: Store<CustomResourceDefinition>;
  before(async () => {
    env = await memoryRESTOptions();
    crds = (await newCustomResourceDefinitionREST({ restOptionsGetter: env.getter }))
      .customResourceDefinitions;
  });
  after(() => env.close());

  it('stores a CRD with v1 defaults, accepted names, Established and the stored version', async () => {
    const out = await crds.create(ctx, cronTab(), { options: {} });
    assert.equal(out.spec.names.singular, 'crontab');
    assert.equal(out.spec.names.listKind, 'CronTabList');
    assert.deepEqual(out.spec.conversion, { strategy: 'None' });
    const status = out.status;
    assert.ok(status);
    assert.deepEqual(status.storedVersions, ['v1']);
    assert.deepEqual(status.acceptedNames, out.spec.names);
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status, c.reason]),
      [
        ['NamesAccepted', 'True', 'NoConflicts'],
        ['Established', 'True', 'InitialNamesAccepted'],
      ],
    );
    assert.equal(out.metadata?.generation, 1);
    const key = '/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com';
    assert.notEqual((await env.backend.get(key)).kv, null);
    const table = crds.convertToTable(ctx, out, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Created At'],
    );
    assert.equal(table.rows[0]?.cells[0], 'crontabs.stable.example.com');
  });

  it('keeps stored versions and adds a new storage version on update', async () => {
    const out = await crds.update(ctx, 'crontabs.stable.example.com', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => {
          const crd = structuredClone(old as CustomResourceDefinition);
          crd.spec.versions = [
            { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: cronTabSchema() } },
            {
              name: 'v2',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', description: 'v2' } },
            },
          ];
          return Promise.resolve(crd);
        },
      },
      options: {},
    });
    assert.deepEqual(out.object.status?.storedVersions, ['v1', 'v2']);
    assert.equal(out.object.metadata?.generation, 2);
    await rejectsWithStatus(
      crds.update(ctx, 'crontabs.stable.example.com', {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) => {
            const crd = structuredClone(old as CustomResourceDefinition);
            crd.spec.group = 'other.example.com';
            return Promise.resolve(crd);
          },
        },
        options: {},
      }),
      { code: 422, reason: 'Invalid' },
    );
  });

  it('requires the name to be <plural>.<group>', async () => {
    await rejectsWithStatus(
      crds.create(ctx, cronTab({}, 'crontab.stable.example.com'), { options: {} }),
      invalid('crontab.stable.example.com', [
        'metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group',
      ]),
    );
  });

  it("checks group, scope, versions and names with kube's messages", async () => {
    const crd = cronTab({
      group: 'example',
      scope: 'Global',
      names: { plural: 'Bad_Plural', kind: 'Bad Kind', listKind: 'Bad Kind' },
      versions: [
        { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: cronTabSchema() } },
        { name: 'v1', served: true, storage: false },
      ],
    });
    crd.metadata = { name: 'Bad_Plural.example' };
    const dns1035 =
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    const status = await rejectsWithStatus(crds.create(ctx, crd, { options: {} }), {
      code: 422,
      reason: 'Invalid',
    });
    const causes = (status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
    for (const want of [
      'spec.group: Invalid value: "example": should be a domain with at least one dot',
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
      'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
      'spec.names.plural: Invalid value: "Bad_Plural": ' + dns1035,
      'spec.names.kind: Invalid value: "Bad Kind": may have mixed case, but should otherwise match: ' +
        dns1035,
      'spec.names.listKind: Invalid value: "Bad Kind": kind and listKind may not be the same',
    ])
      assert.ok(causes.includes(want), `missing ${want} in ${causes.join('\n')}`);
    for (const detail of [
      'must contain unique version names',
      'must have exactly one version marked as storage version',
    ])
      assert.ok(
        causes.some((c) => c.startsWith('spec.versions: Invalid value: [') && c.endsWith(detail)),
        detail,
      );
  });

  it('requires structural schemas: types everywhere, object at the root', async () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          properties: {
            list: { type: 'array', items: {} },
            anything: { 'x-kubernetes-preserve-unknown-fields': true },
            port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
            choice: { type: 'string', oneOf: [{ type: 'string', description: 'x' }] },
          },
        },
        ref: { $ref: '#/definitions/x', type: 'string' },
        kind: { type: 'integer' },
      },
    };
    const p = 'spec.validation.openAPIV3Schema';
    await rejectsWithStatus(
      crds.create(
        ctx,
        cronTab({
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
        }),
        {
          options: {},
        },
      ),
      invalid('crontabs.stable.example.com', [
        `${p}.properties[kind].type: Invalid value: "integer": must be string`,
        `${p}.properties[spec].properties[choice].oneOf[0].description: Forbidden: must be empty to be structural`,
        `${p}.properties[spec].properties[choice].oneOf[0].type: Forbidden: must be empty to be structural`,
        `${p}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`,
        `${p}.properties[spec].type: Required value: must not be empty for specified object fields`,
        `${p}.properties[ref].$ref: Forbidden: $ref is not supported`,
      ]),
    );
    await rejectsWithStatus(
      crds.create(
        ctx,
        cronTab({
          versions: [
            { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'string' } } },
          ],
        }),
        { options: {} },
      ),
      invalid('crontabs.stable.example.com', [
        `${p}.type: Invalid value: "string": must be object at the root`,
      ]),
    );
  });

  it('refuses rules and map types under allOf, anyOf, oneOf and not, unless the CRD had them already', async () => {
    const schema = (): JSONSchemaProps => ({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { replicas: { type: 'integer' }, labels: { type: 'object' } },
          // What controller-gen before 0.16 wrote for a rule on a field and one on its type.
          allOf: [
            { 'x-kubernetes-validations': [{ rule: 'self.replicas >= 0' }] },
            { properties: { labels: { 'x-kubernetes-map-type': 'atomic' } } },
          ],
          not: { 'x-kubernetes-validations': [{ rule: 'self.replicas > 9' }] },
        },
      },
    });
    const p = 'spec.validation.openAPIV3Schema.properties[spec]';
    const wanted = [
      `${p}.allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
      `${p}.allOf[1].properties[labels].x-kubernetes-map-type: Forbidden: must be undefined to be structural`,
      `${p}.not.x-kubernetes-validations: Forbidden: must be empty to be structural`,
    ];
    await rejectsWithStatus(
      crds.create(ctx, withSchema(schema()), { options: {} }),
      invalid('crontabs.stable.example.com', [
        ...wanted,
        `${p}.allOf[1].properties[labels].type: Required value: must be object if x-kubernetes-map-type is specified`,
      ]),
    );
    // kube's requireStructuralSchema: a CRD stored with such a schema (by an older server) can still
    // be updated; one whose schemas were structural cannot take one on.
    const stored = withSchema(schema());
    const changed = withSchema({ ...schema(), description: 'changed' });
    const structuralErrors = (crd: CustomResourceDefinition, old: CustomResourceDefinition) =>
      validateCRDUpdate(crd, old)
        .map((e) => e.error())
        .filter((e) => e.endsWith('to be structural'))
        .sort();
    assert.deepEqual(structuralErrors(changed, stored), []);
    assert.deepEqual(structuralErrors(changed, withSchema(cronTabSchema())), wanted);
  });

  it('holds an update to the per-expression cost limit only on versions whose schema it changed', async () => {
    await loadCel();
    // Eight unbounded strings joined: 11,010,060 against the limit of 10,000,000 (kube's test case).
    const message = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `self[${i}]`).join(' + ');
    const schema = (marker: string): JSONSchemaProps => ({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          description: marker,
          properties: {
            f: {
              type: 'array',
              items: { type: 'string' },
              'x-kubernetes-validations': [{ rule: 'true', messageExpression: message }],
            },
          },
        },
      },
    });
    const version = (name: string, marker: string, storage = false) => ({
      name,
      served: true,
      storage,
      schema: { openAPIV3Schema: schema(marker) },
    });
    const old = cronTab({ versions: [version('v1', 'one', true), version('v2', 'two')] });
    const crd = cronTab({
      versions: [version('v1', 'one', true), version('v2', 'two, changed'), version('v3', 'three')],
    });
    const costErrors = (errs: { error(): string }[]): string[] =>
      errs.map((e) => e.error()).filter((e) => e.includes('estimated messageExpression cost'));
    const at = (i: number): string =>
      `spec.versions[${i}].schema.openAPIV3Schema.properties[spec].properties[f].x-kubernetes-validations[0]` +
      '.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of 1.101006x ' +
      '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and ' +
      'strings are declared)';
    assert.deepEqual(costErrors(validateCRDUpdate(crd, old)), [at(1), at(2)]);
    assert.deepEqual(costErrors(validateCRD(crd)), [at(0), at(1), at(2)]);
  });

  it("reports a node's rules after those below it, and none where its schema has errors", async () => {
    await loadCel();
    const rules = (list: { rule: string; fieldPath?: string }[]) => ({ 'x-kubernetes-validations': list });
    const crd = withSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            a: { type: 'string', ...rules([{ rule: 'self.size( >' }]) },
            b: { type: 'integer', ...rules([{ rule: 'self >', fieldPath: '.nope' }]) },
          },
          ...rules([{ rule: 'self.a ==' }]),
        },
      },
    });
    const p = 'spec.validation.openAPIV3Schema.properties[spec]';
    assert.deepEqual(
      validateCRD(crd)
        .filter((e) => e.field.startsWith(p))
        .map((e) => `${e.field}: ${e.type}`),
      [
        // kube's schema errors come first; b's fieldPath error keeps b's rule, and spec's, uncompiled.
        `${p}.properties[b].x-kubernetes-validations[0].fieldPath: FieldValueInvalid`,
        `${p}.properties[a].x-kubernetes-validations[0].rule: FieldValueInvalid`,
      ],
    );
    const version = crd.spec.versions[0];
    const spec = version?.schema?.openAPIV3Schema?.properties?.['spec'];
    assert.ok(spec?.properties !== undefined);
    spec.properties['b'] = { type: 'integer' };
    assert.deepEqual(
      validateCRD(crd)
        .filter((e) => e.field.startsWith(p))
        .map((e) => e.field),
      [`${p}.properties[a].x-kubernetes-validations[0].rule`, `${p}.x-kubernetes-validations[0].rule`],
    );
  });

  it('uses per-version paths when the versions have different schemas, and refuses preserveUnknownFields', async () => {
    await rejectsWithStatus(
      crds.create(
        ctx,
        cronTab({
          preserveUnknownFields: true,
          versions: [
            { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: cronTabSchema() } },
            {
              name: 'v2',
              served: true,
              storage: false,
              schema: { openAPIV3Schema: { type: 'object', uniqueItems: true } },
            },
          ],
        }),
        { options: {} },
      ),
      invalid('crontabs.stable.example.com', [
        'spec.versions[1].schema.openAPIV3Schema.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
        'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ]),
    );
  });

  it('checks conversion webhooks, printer columns and the scale subresource', async () => {
    const version = {
      name: 'v1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: cronTabSchema() },
      subresources: { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas' } },
      additionalPrinterColumns: [{ name: 'Image', type: 'text', jsonPath: '.spec.image' }],
    };
    await rejectsWithStatus(
      crds.create(
        ctx,
        cronTab({
          versions: [version],
          conversion: {
            strategy: 'Webhook',
            webhook: { conversionReviewVersions: ['v3'], clientConfig: {} },
          },
        }),
        { options: {} },
      ),
      invalid('crontabs.stable.example.com', [
        'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
        'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
        'spec.additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
        'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
        'spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1',
      ]),
    );
  });

  it('takes status through customresourcedefinitions/status and keeps the spec', async () => {
    const storage = await newCustomResourceDefinitionREST({ restOptionsGetter: env.getter });
    const out = await storage.status.update(ctx, 'crontabs.stable.example.com', {
      objInfo: {
        preconditions: () => undefined,
        updatedObject: (_c, old) => {
          const crd = structuredClone(old as CustomResourceDefinition);
          crd.spec.scope = 'Cluster';
          crd.status = { ...crd.status, storedVersions: ['v2'] };
          return Promise.resolve(crd);
        },
      },
      options: {},
    });
    assert.equal(out.object.spec.scope, 'Namespaced');
    assert.deepEqual(out.object.status?.storedVersions, ['v2']);
    await storage.customResourceDefinitions.destroy();
  });

  it('requires the approval annotation for *.k8s.io groups', async () => {
    const crd = cronTab(
      { group: 'widgets.k8s.io', names: { plural: 'widgets', kind: 'Widget' } },
      'widgets.widgets.k8s.io',
    );
    await rejectsWithStatus(
      crds.create(ctx, crd, { options: {} }),
      invalid('widgets.widgets.k8s.io', [
        'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ]),
    );
    crd.metadata = { ...crd.metadata, annotations: { 'api-approved.kubernetes.io': 'unapproved, testing' } };
    const out = await crds.create(ctx, crd, { options: {} });
    assert.equal(out.metadata?.name, 'widgets.widgets.k8s.io');
  });
});

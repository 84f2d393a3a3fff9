import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../api/apiextensions/v1/json-schema-props.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { testContext } from '../generic/testing/widgets.js';
import { newCustomResourceDefinitionREST } from './storage.js';
import { testCAPEM } from './testing/test-ca.js';

const ctx = testContext('');
const apiVersion = 'apiextensions.k8s.io/v1';

const cronTabSchema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string' },
        image: { type: 'string' },
        replicas: { type: 'integer' },
      },
    },
  },
});

function cronTab(
  extra: Partial<CustomResourceDefinition['spec']> = {},
  name = 'crontabs.stable.example.com',
): CustomResourceDefinition {
  return {
    apiVersion,
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: cronTabSchema() } }],
      ...extra,
    },
  };
}

const invalid = (name: string, causes: string[]): { code: number; reason: string; message: string } => ({
  code: 422,
  reason: 'Invalid',
  message:
    `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ` +
    (causes.length === 1 ? (causes[0] ?? '') : `[${causes.join(', ')}]`),
});

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

  describe('names held by another CRD of the group', () => {
    const group = 'names.example.com';
    const named = (plural: string, names: Partial<CustomResourceDefinition['spec']['names']>) =>
      cronTab({ group, names: { plural, kind: 'Unset', ...names } }, `${plural}.${group}`);
    const conditions = (crd: CustomResourceDefinition): string[][] =>
      (crd.status?.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']);
    const update = (name: string, change: (crd: CustomResourceDefinition) => void) =>
      crds.update(ctx, name, {
        objInfo: {
          preconditions: () => undefined,
          updatedObject: (_c, old) => {
            const crd = structuredClone(old as CustomResourceDefinition);
            change(crd);
            return Promise.resolve(crd);
          },
        },
        options: {},
      });

    it('refuses a taken name at create, and takes it once the holder gives it up', async () => {
      const store = crds as unknown as { reconsiderNames(c: typeof ctx, name: string): Promise<boolean> };
      await crds.create(ctx, named('mikes', { kind: 'Mike', shortNames: ['nov'] }), { options: {} });
      const waiting = await crds.create(ctx, named('nov', { kind: 'November' }), { options: {} });
      assert.deepEqual(conditions(waiting), [
        ['NamesAccepted', 'False', 'PluralConflict', '"nov" is already in use'],
        ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
      ]);
      assert.deepEqual(waiting.status?.acceptedNames, {
        plural: '',
        singular: 'november',
        kind: 'November',
        listKind: 'NovemberList',
      });
      assert.equal(await store.reconsiderNames(ctx, 'nov.names.example.com'), false);
      // The holder gives the short name up: the waiting CRD takes it on its next sync.
      await update('mikes.names.example.com', (crd) => {
        delete crd.spec.names.shortNames;
      });
      assert.equal(await store.reconsiderNames(ctx, 'nov.names.example.com'), true);
      const now = await crds.get(ctx, 'nov.names.example.com', {});
      assert.deepEqual(conditions(now), [
        ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
        ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
      ]);
      assert.deepEqual(now.status?.acceptedNames, now.spec.names);
      assert.equal(await store.reconsiderNames(ctx, 'nov.names.example.com'), false);
    });

    it('keeps the accepted names of an established CRD whose update asks for a taken one', async () => {
      const out = await update('mikes.names.example.com', (crd) => {
        crd.spec.names.singular = 'nov';
      });
      assert.equal(out.object.spec.names.singular, 'nov');
      assert.equal(out.object.status?.acceptedNames?.singular, 'mike');
      assert.deepEqual(conditions(out.object), [
        ['NamesAccepted', 'False', 'SingularConflict', '"nov" is already in use'],
        ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
      ]);
    });

    it('leaves a CRD whose conversion caBundle does not load unestablished until it is fixed', async () => {
      const store = crds as unknown as { reconsiderNames(c: typeof ctx, name: string): Promise<boolean> };
      const conversion = (caBundle: string) => ({
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { url: 'https://hooks.example.com/convert', caBundle },
        },
      });
      const created = await crds.create(
        ctx,
        cronTab(
          {
            group,
            names: { plural: 'romeos', kind: 'Romeo' },
            conversion: conversion(Buffer.from('not a certificate').toString('base64')),
          },
          `romeos.${group}`,
        ),
        { options: {} },
      );
      assert.deepEqual(conditions(created), [
        ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
        ['Established', 'False', 'InvalidCABundle', 'The conversion webhook CABundle is invalid'],
      ]);
      assert.equal(await store.reconsiderNames(ctx, `romeos.${group}`), false);
      const fixed = await update(`romeos.${group}`, (crd) => {
        crd.spec.conversion = conversion(Buffer.from(testCAPEM).toString('base64'));
      });
      assert.deepEqual(conditions(fixed.object)[1], [
        'Established',
        'True',
        'InitialNamesAccepted',
        'the initial names have been accepted',
      ]);
      // Established with a bundle that loads: kube's ratchet refuses one that does not.
      const junk = Buffer.from('not a certificate').toString('base64');
      await rejectsWithStatus(
        update(`romeos.${group}`, (crd) => {
          crd.spec.conversion = conversion(junk);
        }),
        invalid(`romeos.${group}`, [
          `spec.conversion.webhookClientConfig.caBundle: Invalid value: "${junk}": unable to load root certificates: unable to parse bytes as PEM block`,
        ]),
      );
    });

    it('lets one of two CRDs asking for the same name at once have it', async () => {
      const [a, b] = await Promise.all([
        crds.create(ctx, named('oscars', { kind: 'Oscar', shortNames: ['papa'] }), { options: {} }),
        crds.create(ctx, named('quebecs', { kind: 'Quebec', shortNames: ['papa'] }), { options: {} }),
      ]);
      const accepted = [a, b].map((crd) => conditions(crd)[0]?.[1]).sort();
      assert.deepEqual(accepted, ['False', 'True']);
    });
  });
});

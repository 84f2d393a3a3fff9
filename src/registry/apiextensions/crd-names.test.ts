// The CRD store decides a CRD's names against the other CRDs of its group, as kube's naming
// controller does: a name another holds is refused with kube's condition, and freed names go to
// the CRDs waiting for them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { Store } from '../generic/store.js';
import { rejectsWithStatus } from '../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../generic/testing/memory-rest-options.js';
import { newCustomResourceDefinitionREST } from './storage.js';
import { ctx, cronTab, invalid } from './testing/crontab.js';
import { testCAPEM } from './testing/test-ca.js';

let env: MemoryRESTOptions;
let crds: Store<CustomResourceDefinition>;
before(async () => {
  env = await memoryRESTOptions();
  crds = (await newCustomResourceDefinitionREST({ restOptionsGetter: env.getter })).customResourceDefinitions;
});
after(() => env.close());

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

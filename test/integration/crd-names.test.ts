// CRD names over HTTP, as kube's naming controller decides them: a CRD asking for a name another CRD
// of its group holds is created with NamesAccepted=False (kube's reason and message), is not
// Established and not served; once the holder is deleted it takes its names and is served. A CRD
// whose conversion webhook caBundle does not load is not Established either (InvalidCABundle) until
// an update fixes it.
// (Two CRDs of one group cannot ask for the same plural, their name being `<plural>.<group>`: the
// name they both want is the first one's short name, or its kind.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { testCAPEM } from '../../src/registry/apiextensions/testing/test-ca.js';
import { jsonCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

const call = (server: CapstanServer, method: string, path: string, body?: unknown): Promise<JSONReply> =>
  jsonCall(server, { method, path, body });

const group = 'names.example.com';
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, names: { kind: string; listKind?: string; shortNames?: string[] }): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, ...names },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  };
}

interface Status {
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  acceptedNames?: Record<string, unknown>;
}

const conditionsOf = (body: Record<string, unknown>): string[][] =>
  ((body.status as Status | undefined)?.conditions ?? []).map((c) => [
    c.type,
    c.status,
    c.reason ?? '',
    c.message ?? '',
  ]);

const refused = (reason: string, message: string): string[][] => [
  ['NamesAccepted', 'False', reason, message],
  ['Established', 'False', 'NotAccepted', 'not all names are accepted'],
];

/** Polls `probe` until it returns a value. */
async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  return (await waitFor('the condition', probe, (got) => got !== undefined, 10_000)) as T;
}

describe('CRD names held by another CRD of the group', () => {
  let server: CapstanServer;
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  const served = async (): Promise<string[]> => {
    const list = await call(server, 'GET', `/apis/${group}/v1`);
    if (list.status === 404) return [];
    return (list.body.resources as { name: string }[]).map((r) => r.name).sort();
  };

  it('refuses the taken names with kube reasons and serves only the holder', async () => {
    const holder = await call(
      server,
      'POST',
      crdPath,
      crd('gadgets', { kind: 'Gadget', shortNames: ['gizmos'] }),
    );
    assert.equal(holder.status, 201, JSON.stringify(holder.body));
    assert.deepEqual(conditionsOf(holder.body), [
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ]);

    const plural = await call(server, 'POST', crdPath, crd('gizmos', { kind: 'Gizmo' }));
    assert.equal(plural.status, 201, JSON.stringify(plural.body));
    assert.deepEqual(conditionsOf(plural.body), refused('PluralConflict', '"gizmos" is already in use'));
    assert.deepEqual((plural.body.status as Status).acceptedNames, {
      plural: '',
      singular: 'gizmo',
      kind: 'Gizmo',
      listKind: 'GizmoList',
    });

    // The default list kind, GadgetList, would be taken too (and, found last, be the reason).
    const kind = await call(
      server,
      'POST',
      crdPath,
      crd('doohickeys', { kind: 'Gadget', listKind: 'Doohickeys' }),
    );
    assert.equal(kind.status, 201, JSON.stringify(kind.body));
    assert.deepEqual(conditionsOf(kind.body), refused('KindConflict', '"Gadget" is already in use'));

    // Read back as stored, not only as answered.
    const stored = await call(server, 'GET', `${crdPath}/gizmos.${group}`);
    assert.deepEqual(conditionsOf(stored.body), refused('PluralConflict', '"gizmos" is already in use'));

    assert.deepEqual(await served(), ['gadgets']);
    const gizmos = await call(server, 'GET', `/apis/${group}/v1/namespaces/default/gizmos`);
    assert.equal(gizmos.status, 404);
    const doohickeys = await call(server, 'GET', `/apis/${group}/v1/namespaces/default/doohickeys`);
    assert.equal(doohickeys.status, 404);
    const gadgets = await call(server, 'GET', `/apis/${group}/v1/namespaces/default/gadgets`);
    assert.equal(gadgets.status, 200);
  });

  it('accepts and serves the waiting CRDs once the holder is deleted', async () => {
    const deleted = await call(server, 'DELETE', `${crdPath}/gadgets.${group}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const accepted = await eventually(async () => {
      const got = await call(server, 'GET', `${crdPath}/gizmos.${group}`);
      return conditionsOf(got.body)[0]?.[1] === 'True' ? got : undefined;
    });
    assert.deepEqual(conditionsOf(accepted.body), [
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted'],
    ]);
    assert.deepEqual((accepted.body.status as Status).acceptedNames, {
      plural: 'gizmos',
      singular: 'gizmo',
      kind: 'Gizmo',
      listKind: 'GizmoList',
    });
    await eventually(async () => {
      const got = await call(server, 'GET', `${crdPath}/doohickeys.${group}`);
      return conditionsOf(got.body)[0]?.[1] === 'True' ? got : undefined;
    });
    await eventually(async () => ((await served()).length === 2 ? true : undefined));
    assert.deepEqual(await served(), ['doohickeys', 'gizmos']);
    const created = await call(server, 'POST', `/apis/${group}/v1/namespaces/default/gizmos`, {
      apiVersion: `${group}/v1`,
      kind: 'Gizmo',
      metadata: { name: 'one' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  it('does not serve a CRD whose conversion caBundle does not load until it is fixed', async () => {
    const conversion = (pem: string) => ({
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: {
          url: 'https://hooks.example.com/convert',
          caBundle: Buffer.from(pem).toString('base64'),
        },
      },
    });
    const body = crd('sprockets', { kind: 'Sprocket' }) as { spec: Record<string, unknown> };
    body.spec['conversion'] = conversion('not a certificate');
    const created = await call(server, 'POST', crdPath, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(conditionsOf(created.body), [
      ['NamesAccepted', 'True', 'NoConflicts', 'no conflicts found'],
      ['Established', 'False', 'InvalidCABundle', 'The conversion webhook CABundle is invalid'],
    ]);
    const unserved = await call(server, 'GET', `/apis/${group}/v1/namespaces/default/sprockets`);
    assert.equal(unserved.status, 404);
    const fixed = await fetch(`${server.url}${crdPath}/sprockets.${group}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
        'content-type': 'application/merge-patch+json',
      },
      body: JSON.stringify({ spec: { conversion: conversion(testCAPEM) } }),
    });
    assert.equal(fixed.status, 200);
    const after = (await fixed.json()) as Record<string, unknown>;
    assert.deepEqual(conditionsOf(after)[1], [
      'Established',
      'True',
      'InitialNamesAccepted',
      'the initial names have been accepted',
    ]);
    await eventually(async () => ((await served()).includes('sprockets') ? true : undefined));
  });

  it('gives a waiting CRD the name its holder gives up in an update', async () => {
    const holder = await call(
      server,
      'POST',
      crdPath,
      crd('levers', { kind: 'Lever', shortNames: ['pulleys'] }),
    );
    assert.equal(holder.status, 201, JSON.stringify(holder.body));
    const waiting = await call(server, 'POST', crdPath, crd('pulleys', { kind: 'Pulley' }));
    assert.deepEqual(conditionsOf(waiting.body), refused('PluralConflict', '"pulleys" is already in use'));
    const gaveUp = await fetch(`${server.url}${crdPath}/levers.${group}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${server.kubeConfig.users[0]?.user.token ?? ''}`,
        'content-type': 'application/merge-patch+json',
      },
      body: JSON.stringify({ spec: { names: { shortNames: ['lv'] } } }),
    });
    assert.equal(gaveUp.status, 200);
    await eventually(async () => {
      const got = await call(server, 'GET', `${crdPath}/pulleys.${group}`);
      return conditionsOf(got.body)[1]?.[1] === 'True' ? got : undefined;
    });
    await eventually(async () => ((await served()).includes('pulleys') ? true : undefined));
  });

  it('registers the APIService of a CRD that is not served, as kube registers every CRD', async () => {
    const body = crd('lonelies', { kind: 'Lonely' }) as {
      metadata: { name: string };
      spec: Record<string, unknown>;
    };
    body.metadata.name = 'lonelies.lonely.example.com';
    body.spec['group'] = 'lonely.example.com';
    body.spec['conversion'] = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: {
          url: 'https://hooks.example.com/convert',
          caBundle: Buffer.from('junk').toString('base64'),
        },
      },
    };
    const created = await call(server, 'POST', crdPath, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(conditionsOf(created.body)[1]?.[2], 'InvalidCABundle');
    const registered = await eventually(async () => {
      const got = await call(
        server,
        'GET',
        '/apis/apiregistration.k8s.io/v1/apiservices/v1.lonely.example.com',
      );
      return got.status === 200 ? got : undefined;
    });
    assert.equal((registered.body.spec as { group?: string }).group, 'lonely.example.com');
    const deleted = await call(server, 'DELETE', `${crdPath}/lonelies.lonely.example.com`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await eventually(async () => {
      const got = await call(
        server,
        'GET',
        '/apis/apiregistration.k8s.io/v1/apiservices/v1.lonely.example.com',
      );
      return got.status === 404 ? true : undefined;
    });
  });
});

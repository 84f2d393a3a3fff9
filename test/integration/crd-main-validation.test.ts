// A custom resource's create and main-resource update over HTTP are validated as kube 1.33's
// customResourceStrategy and its validator do: a wrong kind is all that the validator reports,
// x-kubernetes-embedded-resource values need apiVersion and kind and valid metadata (on update too,
// unratcheted), an update's own metadata is checked as ValidateObjectMetaAccessorUpdate (beside the
// generic store's common checks), and new finalizer names without a domain draw warnings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { namespacedCRDOf } from './support/crd.js';
import { mergePatchCall, type JSONReply } from './support/json-call.js';
import { waitFor } from './support/wait-for.js';

let server: CapstanServer;
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.mainval.example.com';
const widgets = '/apis/mainval.example.com/v1/namespaces/default/widgets';

type Reply = JSONReply;

const call = (method: string, path: string, body?: unknown): Promise<Reply> =>
  mergePatchCall(server, { method, path, body });

/** The version's schema: loose, or with spec.template an embedded resource and spec.size capped. */
function version(tight: boolean): Record<string, unknown> {
  const template = {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    ...(tight ? { 'x-kubernetes-embedded-resource': true } : {}),
  };
  const size = { type: 'integer', ...(tight ? { maximum: 5 } : {}) };
  const spec = { type: 'object', properties: { size, template } };
  return {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
  };
}

const message = (r: Reply): string => String(r.body['message']);
const causes = (r: Reply): unknown[] => (r.body['details'] as { causes?: unknown[] }).causes ?? [];

function widget(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'mainval.example.com/v1', kind: 'Widget', metadata: { name }, spec };
}

describe('custom resource create and main-resource update validation', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
    const names = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' };
    const crd = namespacedCRDOf('mainval.example.com', names, [version(false)]);
    const made = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // Stored while spec.template was not an embedded resource: it has no kind.
    const kindless = await waitFor(
      'widgets to be served',
      () => call('POST', widgets, widget('kindless', { template: { apiVersion: 'v1' } })),
      (r) => r.status !== 404,
    );
    assert.equal(kindless.status, 201, JSON.stringify(kindless.body));
    const marked = await call('PATCH', crdPath, { spec: { versions: [version(true)] } });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    await waitFor(
      'the tightened schema',
      () => call('POST', `${widgets}?dryRun=All`, widget('probe', { size: 9 })),
      (r) => r.status === 422,
    );
  });
  after(() => server.stop());

  it('refuses an embedded resource lacking apiVersion and kind (a non-string one is dropped)', async () => {
    const res = await call('POST', widgets, widget('w1', { template: { apiVersion: 5, metadata: {} } }));
    assert.equal(res.status, 422);
    assert.equal(
      message(res),
      'Widget.mainval.example.com "w1" is invalid: [spec.template.apiVersion: Required value: must not be empty, spec.template.kind: Required value: must not be empty]',
    );
  });

  it('refuses an embedded resource whose metadata.name is not a path segment', async () => {
    const template = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b' } };
    const res = await call('POST', widgets, widget('w2', { template }));
    assert.equal(res.status, 422);
    assert.equal(
      message(res),
      `Widget.mainval.example.com "w2" is invalid: spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
    );
    assert.deepEqual(causes(res), [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "a/b": may not contain '/'`,
        field: 'spec.template.metadata.name',
      },
    ]);
  });

  it('reports only the wrong kind of a create, not its metadata or schema errors', async () => {
    const body = { ...widget('Bad_Name', { size: 9 }), kind: 'Gadget' };
    const res = await call('POST', widgets, body);
    assert.equal(res.status, 422);
    assert.equal(
      message(res),
      'Gadget.mainval.example.com "Bad_Name" is invalid: kind: Invalid value: "Gadget": must be Widget',
    );
    // kube's Invalid names the kind its typer reads from the unstructured object.
    assert.deepEqual(res.body['details'], {
      name: 'Bad_Name',
      group: 'mainval.example.com',
      kind: 'Gadget',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Gadget": must be Widget', field: 'kind' },
      ],
    });
  });

  it('refuses a body without kind, as the unstructured decoder does (no kind from the endpoint)', async () => {
    const { kind: _, ...kindless } = widget('nokind', { size: 1 });
    const text = JSON.stringify(kindless);
    const res = await call('POST', widgets, kindless);
    assert.equal(res.status, 400);
    assert.equal(res.body['reason'], 'BadRequest');
    assert.equal(
      message(res),
      `Widget in version "v1" cannot be handled as a Widget: Object 'Kind' is missing in '${text}'`,
    );
    assert.equal((await call('GET', `${widgets}/nokind`)).status, 404);
  });

  it('checks an update: embedded resources unratcheted, metadata once per kube step, finalizer warnings', async () => {
    const got = await call('GET', `${widgets}/kindless`);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const stored = got.body as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    // Unchanged, the kindless template is still refused.
    const kindless = await call('PUT', `${widgets}/kindless`, {
      ...stored,
      spec: { ...stored.spec, size: 2 },
    });
    assert.equal(kindless.status, 422);
    assert.equal(
      message(kindless),
      'Widget.mainval.example.com "kindless" is invalid: spec.template.kind: Required value: must not be empty',
    );
    // A wrong kind: the validator reports only it (the embedded resource is still checked).
    const wrongKind = await call('PUT', `${widgets}/kindless`, { ...stored, kind: 'Gadget' });
    assert.equal(wrongKind.status, 422);
    assert.equal(
      message(wrongKind),
      'Gadget.mainval.example.com "kindless" is invalid: [kind: Invalid value: "Gadget": must be Widget, spec.template.kind: Required value: must not be empty]',
    );
    // A bad label: the store's common ObjectMeta and update checks, then the validator's update check.
    const metadata = { ...stored.metadata, labels: { 'a b': 'c' } };
    const fixed = { template: { apiVersion: 'v1', kind: 'Pod' } };
    const labelled = await call('PUT', `${widgets}/kindless`, { ...stored, metadata, spec: fixed });
    assert.equal(labelled.status, 422);
    assert.equal(causes(labelled).length, 3);
    assert.match(message(labelled), /is invalid: metadata\.labels: Invalid value: "a b": name part must/);
    const finalized = await call('PUT', `${widgets}/kindless`, {
      ...stored,
      metadata: { ...stored.metadata, finalizers: ['example.com/ok', 'cleanup'] },
      spec: fixed,
    });
    assert.equal(finalized.status, 200, message(finalized));
    assert.equal(
      finalized.warning,
      '299 - "metadata.finalizers: \\"cleanup\\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"',
    );
  });
});

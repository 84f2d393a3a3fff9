import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PodTemplate, PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { Store } from '../../generic/store.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPodTemplateREST } from './storage.js';

const podTemplate = (name: string, template: PodTemplateSpec): PodTemplate => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name },
  template,
});

const put = (obj: PodTemplate): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});

describe('podtemplates', () => {
  let env: MemoryRESTOptions;
  let store: Store<PodTemplate>;
  const ctx = testContext('default');
  before(async () => {
    env = await memoryRESTOptions();
    store = await newPodTemplateREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('stores with the pod defaults of its template and generation 1', async () => {
    const out = await store.create(
      ctx,
      podTemplate('tpl', {
        metadata: { labels: { app: 'web', tier: 'front' } },
        spec: {
          containers: [
            { name: 'web', image: 'nginx' },
            { name: 'side', image: 'busybox:1.36' },
          ],
        },
      }),
      { options: {} },
    );
    assert.equal(out.template?.spec?.restartPolicy, 'Always');
    assert.equal(out.template.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(out.template.spec.containers[0]?.imagePullPolicy, 'Always');
    assert.equal(out.metadata?.generation, 1);
    assert.notEqual((await env.backend.get('/registry/podtemplates/default/tpl')).kv, null);
    assert.deepEqual(store.shortNames(), []);
  });

  it('validates the template as a pod spec, with its path', async () => {
    await rejectsWithStatus(
      store.create(ctx, podTemplate('empty', { spec: { containers: [] } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message: 'PodTemplate "empty" is invalid: template.spec.containers: Required value',
      },
    );
    await rejectsWithStatus(
      store.create(
        ctx,
        podTemplate('labels', {
          metadata: { labels: { 'bad key': 'x' } },
          spec: { containers: [{ name: 'a', image: 'x' }] },
        }),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          "PodTemplate \"labels\" is invalid: template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      },
    );
  });

  it("checks a template's pod annotations and refuses its ephemeral containers, at kube's paths", async () => {
    await rejectsWithStatus(
      store.create(
        ctx,
        podTemplate('annotated', {
          metadata: {
            annotations: {
              'controller.kubernetes.io/pod-deletion-cost': '1e3',
              'container.apparmor.security.beta.kubernetes.io/a': 'localhost/p',
            },
          },
          spec: {
            containers: [
              { name: 'a', image: 'x', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } },
            ],
          },
        }),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PodTemplate "annotated" is invalid: [template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "1e3": must be a 32bit integer, template.spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match]',
      },
    );
    await rejectsWithStatus(
      store.create(
        ctx,
        podTemplate('debug', {
          spec: {
            containers: [{ name: 'a', image: 'x' }],
            ephemeralContainers: [{ name: 'd', image: 'busybox' }],
          },
        }),
        { options: {} },
      ),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'PodTemplate "debug" is invalid: template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
      },
    );
  });

  it('moves the generation when the template changes, not for metadata', async () => {
    const cur = await store.get(ctx, 'tpl', {});
    const annotated = structuredClone(cur);
    annotated.metadata = { ...annotated.metadata, annotations: { a: 'b' } };
    const same = (await store.update(ctx, 'tpl', put(annotated))).object;
    assert.equal(same.metadata?.generation, 1);
    const changed = structuredClone(same);
    const first = changed.template?.spec?.containers[0];
    if (first !== undefined) first.image = 'nginx:1.27';
    assert.equal((await store.update(ctx, 'tpl', put(changed))).object.metadata?.generation, 2);
  });

  it('prints NAME CONTAINERS IMAGES POD LABELS', async () => {
    const table = store.convertToTable(ctx, await store.list(ctx, {}), {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => c.name),
      ['Name', 'Containers', 'Images', 'Pod Labels'],
    );
    assert.deepEqual(table.rows[0]?.cells, [
      'tpl',
      'web,side',
      'nginx:1.27,busybox:1.36',
      'app=web,tier=front',
    ]);
  });
});

// managedFields around a required scalar a present struct lacks (a ReplicaSet status's `replicas`,
// `json:"replicas"` in k8s.io/api 1.33): kube converts both sides of an Update from their Go
// structs, where the member holds 0 when unset, so absent and 0 are one value. Memory keeps the
// member as sent; the Go-typed compare reads what memory lacks as that zero.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import { builtinFieldManager } from '../testing/field-manager.js';

const fieldManager = (kind: string, subresource: string) =>
  builtinFieldManager('apps/v1', kind, { subresource, zero: true });

const rs = (status: Record<string, unknown> | undefined, uid = 'u'): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'r', namespace: 'default', uid },
  spec: { replicas: 1, selector: { matchLabels: { a: 'b' } } },
  ...(status === undefined ? {} : { status }),
});

const fieldsOf = (obj: KubeObject, manager: string): unknown =>
  obj.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

describe('a status update: replicas absent or 0 is the same value', () => {
  const status = fieldManager('ReplicaSet', 'status');
  const cases: readonly {
    name: string;
    live: Record<string, unknown>;
    next: Record<string, unknown>;
    want: unknown;
  }[] = [
    { name: 'absent → 0', live: {}, next: { replicas: 0 }, want: undefined },
    { name: '0 → absent', live: { replicas: 0 }, next: {}, want: undefined },
    {
      name: 'absent → absent, another member set',
      live: {},
      next: { observedGeneration: 1 },
      want: { 'f:status': { 'f:observedGeneration': {} } },
    },
    {
      name: '0 → 0, another member set',
      live: { replicas: 0 },
      next: { replicas: 0, observedGeneration: 1 },
      want: { 'f:status': { 'f:observedGeneration': {} } },
    },
    // Modified, as kube sees 2 become 0: not removed.
    { name: '2 → absent', live: { replicas: 2 }, next: {}, want: { 'f:status': { 'f:replicas': {} } } },
    { name: 'absent → 2', live: {}, next: { replicas: 2 }, want: { 'f:status': { 'f:replicas': {} } } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      // A tracked object (one entry already), so an update that changes nothing records nothing.
      const owner = {
        manager: 'o',
        operation: 'Update' as const,
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
      };
      const live = rs(c.live);
      live.metadata = {
        ...live.metadata,
        managedFields: [{ ...owner, fieldsV1: { 'f:spec': { 'f:replicas': {} } } }],
      };
      const out = status.update(live, rs(c.next), 'ctl');
      assert.deepEqual(fieldsOf(out, 'ctl'), c.want);
    });
  }
});

describe('a create compares with the Go zero object, whose status holds replicas 0', () => {
  const main = fieldManager('ReplicaSet', '');
  for (const s of [undefined, {}, { replicas: 0 }]) {
    it(`status ${JSON.stringify(s)}: nothing of status recorded`, () => {
      const out = main.createNoErrors(rs(s, ''), 'creator');
      assert.deepEqual(fieldsOf(out, 'creator'), {
        'f:spec': { 'f:replicas': {}, 'f:selector': {} },
      });
    });
  }
  it('a DaemonSet’s status subresource created whole records no zero count', () => {
    const ds = fieldManager('DaemonSet', 'status');
    const live: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'd', namespace: 'default', uid: 'u' },
      status: {},
    };
    const next: KubeObject = {
      ...live,
      status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 0 },
    };
    const out = ds.updateNoErrors(
      {
        ...live,
        metadata: {
          ...live.metadata,
          managedFields: [
            {
              manager: 'o',
              operation: 'Update',
              apiVersion: 'apps/v1',
              fieldsType: 'FieldsV1',
              fieldsV1: {},
            },
          ],
        },
      },
      next,
      'dsc',
    );
    assert.deepEqual(fieldsOf(out, 'dsc'), { 'f:status': { 'f:desiredNumberScheduled': {} } });
  });
});

describe('a create records the members a new list item’s Go struct holds though memory lacks them', () => {
  it('a Pod whose container lacks resources (a struct held by value): f:resources, as kube records {}', () => {
    const fm = builtinFieldManager('v1', 'Pod', { zero: true });
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    const out = fm.createNoErrors(pod, 'creator');
    assert.deepEqual(fieldsOf(out, 'creator'), {
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} } },
      },
    });
  });
});

// Empty lists and maps a client sends, in managedFields as kube 1.33 records them. An Update
// (create, PUT, non-apply patch) computes fields from the objects converted from their Go structs
// (fieldmanager's typeconverter FromStructured, structured-merge-diff's reflect values), where an
// omitempty member holding an empty list or map is not there: nothing is recorded for it, as if it
// was not sent. An Apply computes its fields from the applied configuration itself (ToFieldSet of
// the unstructured patch): an empty map is a member (f:labels), so is an atomic list (f:args), a
// granular list with no items is not (ports, a list-map).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta.js';
import type { FieldManager } from './field-manager.js';
import { builtinFieldManager } from '../testing/field-manager.js';

const pods = builtinFieldManager('v1', 'Pod');
const configMaps = builtinFieldManager('v1', 'ConfigMap');

const pod = (meta: Record<string, unknown>, spec: Record<string, unknown>, container = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', ...meta },
  spec: { containers: [{ name: 'c', image: 'i', ...container }], ...spec },
});

const fieldsOf = (obj: KubeObject, manager: string): unknown =>
  obj.metadata?.managedFields?.find((e) => e.manager === manager)?.fieldsV1;

interface Case {
  readonly name: string;
  readonly fm: FieldManager;
  /** The object with the empty members. */
  readonly sent: KubeObject;
  /** The same object without them. */
  readonly without: KubeObject;
  /** kube's fieldsV1 for applying `sent`. */
  readonly applied: unknown;
}

const containerFields = { '.': {}, 'f:image': {}, 'f:name': {} };

const cases: readonly Case[] = [
  {
    name: 'labels and annotations {}',
    fm: pods,
    sent: pod({ labels: {}, annotations: {} }, {}),
    without: pod({}, {}),
    applied: {
      'f:metadata': { 'f:annotations': {}, 'f:labels': {} },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': containerFields } },
    },
  },
  {
    name: 'a container with args [] (atomic) and ports [] (a list-map)',
    fm: pods,
    sent: pod({}, {}, { args: [], ports: [] }),
    without: pod({}, {}),
    applied: {
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': { ...containerFields, 'f:args': {} } } },
    },
  },
  {
    name: 'nodeSelector {} (an atomic map) and tolerations [] (an atomic list)',
    fm: pods,
    sent: pod({}, { nodeSelector: {}, tolerations: [] }),
    without: pod({}, {}),
    applied: {
      'f:spec': {
        'f:containers': { 'k:{"name":"c"}': containerFields },
        'f:nodeSelector': {},
        'f:tolerations': {},
      },
    },
  },
  {
    name: 'volumes [] (a list-map) beside a non-empty labels map',
    fm: pods,
    sent: pod({ labels: { app: 'a' } }, { volumes: [] }),
    without: pod({ labels: { app: 'a' } }, {}),
    applied: {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"c"}': containerFields } },
    },
  },
  {
    name: 'a ConfigMap with data {} and binaryData {}',
    fm: configMaps,
    sent: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {}, binaryData: {} },
    without: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
    applied: { 'f:binaryData': {}, 'f:data': {} },
  },
];

describe('managedFields of empty lists and maps (kube 1.33)', () => {
  for (const c of cases) {
    it(`Update records nothing for them: ${c.name}`, () => {
      const created = c.fm.update(
        { apiVersion: 'v1', kind: c.sent.kind ?? '' },
        structuredClone(c.sent),
        'm',
      );
      const plain = c.fm.update(
        { apiVersion: 'v1', kind: c.sent.kind ?? '' },
        structuredClone(c.without),
        'm',
      );
      assert.deepEqual(fieldsOf(created, 'm'), fieldsOf(plain, 'm'));
    });

    it(`Apply records them from the configuration: ${c.name}`, () => {
      const out = c.fm.apply(
        { apiVersion: 'v1', kind: c.sent.kind ?? '', metadata: {} },
        structuredClone(c.sent),
        {
          manager: 'a',
          force: false,
        },
      );
      assert.deepEqual(fieldsOf(out, 'a'), c.applied);
    });
  }

  it('an update that empties a map takes its fields from their owner and gives the map to nobody', () => {
    const live = pods.update(
      { apiVersion: 'v1', kind: 'Pod' },
      pod({ uid: 'u1', labels: { app: 'a' } }, {}),
      'first',
    );
    const metadataOf = (obj: KubeObject, manager: string): unknown =>
      (fieldsOf(obj, manager) as Record<string, unknown> | undefined)?.['f:metadata'];
    assert.deepEqual(metadataOf(live, 'first'), { 'f:labels': { '.': {}, 'f:app': {} } });
    const next = structuredClone(live);
    (next.metadata ?? {}).labels = {};
    const out = pods.update(live, next, 'second');
    assert.equal(metadataOf(out, 'first'), undefined);
    assert.ok(fieldsOf(out, 'first') !== undefined);
    assert.equal(fieldsOf(out, 'second'), undefined);
  });

  it('an update adding an empty list to a container changes nobody', () => {
    const live = pods.update({ apiVersion: 'v1', kind: 'Pod' }, pod({ uid: 'u1' }, {}), 'first');
    const next = structuredClone(live) as KubeObject & { spec: { containers: Record<string, unknown>[] } };
    const container = next.spec.containers[0];
    assert.ok(container !== undefined);
    container['args'] = [];
    container['env'] = [];
    const out = pods.update(live, next, 'second');
    assert.deepEqual(
      out.metadata?.managedFields?.map((e) => e.manager),
      ['first'],
    );
  });
});

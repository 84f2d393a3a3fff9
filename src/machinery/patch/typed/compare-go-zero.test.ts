// Go-typed compares (an Update's) as structured-merge-diff's typed.Compare judges the values kube
// converts from Go structs: a nil list or map (null) is there but holds nothing, so its new items
// are added and it is not; a struct held by value is there wherever its parent is, even when memory
// lacks it; an empty struct behind a pointer (securityContext) that appears is added.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import type { JSONValue } from '../json.js';
import { compareValues } from './compare.js';

const scheme = builtinScheme();
const podRef = { $ref: 'io.k8s.api.core.v1.Pod' };

function changes(lhs: JSONValue, rhs: JSONValue): { added: unknown; modified: unknown; removed: unknown } {
  const cmp = compareValues(scheme, podRef, { lhs, rhs, goTyped: true });
  return {
    added: encodeFieldsV1(cmp.added),
    modified: encodeFieldsV1(cmp.modified),
    removed: encodeFieldsV1(cmp.removed),
  };
}

it('a nil list (null) that now holds items: the items are added, the list is not', () => {
  const got = changes({ spec: { containers: null } }, { spec: { containers: [{ name: 'c' }] } });
  // The new item is the Go Container, whose resources (a struct held by value) is there, empty.
  assert.deepEqual(got.added, {
    'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:resources': {} } } },
  });
  assert.deepEqual(got.modified, {});
  // Emptied to [] it is a leaf that changed, null and [] being two values.
  assert.deepEqual(changes({ spec: { containers: null } }, { spec: { containers: [] } }).modified, {
    'f:spec': { 'f:containers': {} },
  });
});

it('a struct held by value that memory lacks on one side is compared as {}', () => {
  const lhs = { spec: { containers: [{ name: 'c' }] } };
  const rhs = { spec: { containers: [{ name: 'c', resources: {} }] } };
  assert.deepEqual(changes(lhs, rhs), { added: {}, modified: {}, removed: {} });
  assert.deepEqual(changes(rhs, lhs), { added: {}, modified: {}, removed: {} });
  const limits = { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1' } } }] } };
  assert.deepEqual(changes(lhs, limits).added, {
    'f:spec': {
      'f:containers': { 'k:{"name":"c"}': { 'f:resources': { 'f:limits': { '.': {}, 'f:cpu': {} } } } },
    },
  });
});

it('a struct in a new item, and an empty struct behind a pointer, are added though empty', () => {
  const got = changes(
    { spec: { containers: [] } },
    { spec: { containers: [{ name: 'c', resources: {} }], securityContext: {} } },
  );
  assert.deepEqual(got.added, {
    'f:spec': {
      'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:name': {}, 'f:resources': {} } },
      'f:securityContext': {},
    },
  });
});

it('a member without omitempty that memory lacks is its Go zero: set or cleared, it is modified', () => {
  const ref = { $ref: 'io.k8s.api.core.v1.Event' };
  const cmp = (lhs: JSONValue, rhs: JSONValue) => {
    const c = compareValues(scheme, ref, { lhs, rhs, goTyped: true });
    return [c.added, c.modified, c.removed].map((set) => encodeFieldsV1(set));
  };
  const set = { reportingComponent: 'c', lastTimestamp: '2026-01-01T00:00:00Z' };
  const modified = { 'f:lastTimestamp': {}, 'f:reportingComponent': {} };
  assert.deepEqual(cmp({}, set), [{}, modified, {}]);
  assert.deepEqual(cmp(set, {}), [{}, modified, {}]);
  // An omitempty member (message) set or cleared is added or removed.
  assert.deepEqual(cmp({}, { message: 'm' }), [{ 'f:message': {} }, {}, {}]);
  assert.deepEqual(cmp({ message: 'm' }, {}), [{}, {}, { 'f:message': {} }]);
});

it('a new list item or struct holds the members Go writes though memory lacks them: added or removed with it', () => {
  const conditions = (items: JSONValue[]): JSONValue => ({ status: { conditions: items } });
  const ready = { type: 'Ready' };
  const readyFields = {
    '.': {},
    'f:type': {},
    'f:status': {},
    'f:lastProbeTime': {},
    'f:lastTransitionTime': {},
  };
  const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort());
  const got = changes(conditions([]), conditions([ready]));
  const item = (got.added as { 'f:status': { 'f:conditions': Record<string, Record<string, unknown>> } })[
    'f:status'
  ]['f:conditions']['k:{"type":"Ready"}'];
  assert.deepEqual(sorted(item ?? {}), sorted(readyFields));
  // Removed whole, its zero members go too (a manager owning f:lastProbeTime loses it).
  const gone = changes(conditions([ready]), conditions([]));
  const removed = (
    gone.removed as { 'f:status': { 'f:conditions': Record<string, Record<string, unknown>> } }
  )['f:status']['f:conditions']['k:{"type":"Ready"}'];
  assert.deepEqual(sorted(removed ?? {}), sorted(readyFields));
  // A node address sent without its required address: Go holds "", so it is added with the item.
  const node = compareValues(
    scheme,
    { $ref: 'io.k8s.api.core.v1.Node' },
    { lhs: { status: {} }, rhs: { status: { addresses: [{ type: 'InternalIP' }] } }, goTyped: true },
  );
  assert.deepEqual(encodeFieldsV1(node.added), {
    'f:status': {
      'f:addresses': { '.': {}, 'k:{"type":"InternalIP"}': { '.': {}, 'f:address': {}, 'f:type': {} } },
    },
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { encodeFieldsV1 } from '../fieldpath/fields-v1.js';
import { pathString } from '../fieldpath/path-element.js';
import type { JSONObject, JSONValue } from '../json.js';
import { podArbitrary } from '../testing/pod-arbitrary.js';
import { podResolver, podSchema } from '../testing/pod-schema.js';
import { compareValues } from '../typed/compare.js';
import { toFieldSet } from '../typed/to-field-set.js';
import { Conflicts, InvalidConfiguration, Updater, type ManagedFieldSets } from './updater.js';

const updater = new Updater(podResolver, podSchema);
const v = 'v1';

function apply(
  live: JSONValue,
  config: JSONObject,
  opts: { managers: ManagedFieldSets; manager: string; force?: boolean },
) {
  return updater.apply(
    { live, config },
    { version: v, managers: opts.managers, manager: opts.manager, force: opts.force ?? false },
  );
}

const owned = (m: ManagedFieldSets, manager: string): unknown => {
  const vs = m.get(manager);
  return vs === undefined ? undefined : encodeFieldsV1(vs.set);
};

const pod = (containers: JSONObject[]): JSONObject => ({ spec: { containers } });

describe('Updater.apply', () => {
  it('creates from an empty object and owns what it applied', () => {
    const out = apply({}, pod([{ name: 'a', image: 'x' }]), { managers: new Map(), manager: 'one' });
    assert.deepEqual(out.object, pod([{ name: 'a', image: 'x' }]));
    assert.deepEqual(owned(out.managers, 'one'), {
      'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    });
  });

  it('two managers share a list-map by key', () => {
    const first = apply({}, pod([{ name: 'a', image: 'x' }]), { managers: new Map(), manager: 'one' });
    const second = apply(first.object, pod([{ name: 'b', image: 'y' }]), {
      managers: first.managers,
      manager: 'two',
    });
    assert.deepEqual(
      second.object,
      pod([
        { name: 'a', image: 'x' },
        { name: 'b', image: 'y' },
      ]),
    );
    assert.deepEqual(owned(second.managers, 'two'), {
      'f:spec': { 'f:containers': { 'k:{"name":"b"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
    });
  });

  it('conflicts on a field another manager owns, naming each field', () => {
    const first = apply({}, pod([{ name: 'a', image: 'x', args: ['1'] }]), {
      managers: new Map(),
      manager: 'one',
    });
    assert.throws(
      () =>
        apply(first.object, pod([{ name: 'a', image: 'y', args: ['2'] }]), {
          managers: first.managers,
          manager: 'two',
        }),
      (err: unknown) =>
        err instanceof Conflicts &&
        err.conflicts.map((c) => `${c.manager} ${pathString(c.path)}`).join(', ') ===
          'one .spec.containers[name="a"].args, one .spec.containers[name="a"].image',
    );
  });

  it('the same value is no conflict, and both own it', () => {
    const first = apply({}, pod([{ name: 'a', image: 'x' }]), { managers: new Map(), manager: 'one' });
    const second = apply(first.object, pod([{ name: 'a', image: 'x' }]), {
      managers: first.managers,
      manager: 'two',
    });
    assert.equal(second.object, null);
    assert.ok(
      second.managers.get('one')?.set.has([
        { kind: 'field', name: 'spec' },
        { kind: 'field', name: 'containers' },
        { kind: 'key', fields: [{ name: 'name', value: 'a' }] },
        { kind: 'field', name: 'image' },
      ]),
    );
  });

  it('force takes the field over', () => {
    const first = apply({}, pod([{ name: 'a', image: 'x' }]), { managers: new Map(), manager: 'one' });
    const second = apply(first.object, pod([{ name: 'a', image: 'y' }]), {
      managers: first.managers,
      manager: 'two',
      force: true,
    });
    assert.deepEqual(second.object, pod([{ name: 'a', image: 'y' }]));
    assert.deepEqual(owned(second.managers, 'one'), {
      'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:name': {} } } },
    });
  });

  it('removes a field its sole owner stops applying', () => {
    const first = apply(
      {},
      { metadata: { labels: { a: '1', b: '2' } } },
      { managers: new Map(), manager: 'one' },
    );
    const second = apply(
      first.object,
      { metadata: { labels: { a: '1' } } },
      { managers: first.managers, manager: 'one' },
    );
    assert.deepEqual(second.object, { metadata: { labels: { a: '1' } } });
  });

  it('keeps a field another applier still owns', () => {
    const first = apply({}, { metadata: { labels: { a: '1' } } }, { managers: new Map(), manager: 'one' });
    const second = apply(
      first.object,
      { metadata: { labels: { a: '1' } } },
      { managers: first.managers, manager: 'two' },
    );
    const third = apply(
      second.object ?? first.object,
      { metadata: { labels: {} } },
      { managers: second.managers, manager: 'one' },
    );
    assert.deepEqual(third.object ?? second.object ?? first.object, { metadata: { labels: { a: '1' } } });
  });

  it('removes an emptied struct the manager applied', () => {
    const first = apply(
      {},
      { spec: { volumes: [{ name: 'v', hostPath: { path: '/x' } }] } },
      { managers: new Map(), manager: 'one' },
    );
    const second = apply(
      first.object,
      { spec: { volumes: [{ name: 'v' }] } },
      { managers: first.managers, manager: 'one' },
    );
    assert.deepEqual(second.object, { spec: { volumes: [{ name: 'v' }] } });
  });

  it('a re-apply of everything it applied before keeps what others set inside its items', () => {
    const config = (image: string): JSONObject =>
      pod([{ name: 'app', image, env: [{ name: 'A', value: '1' }] }]);
    const first = apply({}, config('x'), { managers: new Map(), manager: 'one' });
    // Another manager adds an env var and a port inside the applier's container item.
    const live = first.object as JSONObject;
    const next = pod([
      {
        name: 'app',
        image: 'x',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
        ports: [{ containerPort: 80, protocol: 'TCP' }],
      },
    ]);
    const managers = updater.update({ live, next }, { version: v, managers: first.managers, manager: 'up' });
    const again = apply(next, config('y'), { managers, manager: 'one' });
    assert.deepEqual(
      again.object,
      pod([
        {
          name: 'app',
          image: 'y',
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          ports: [{ containerPort: 80, protocol: 'TCP' }],
        },
      ]),
    );
  });

  it('atomic maps and lists are owned whole', () => {
    const out = apply(
      {},
      { spec: { nodeSelector: { a: '1' }, tolerations: [{ key: 'k' }] } },
      { managers: new Map(), manager: 'one' },
    );
    assert.deepEqual(owned(out.managers, 'one'), { 'f:spec': { 'f:nodeSelector': {}, 'f:tolerations': {} } });
  });

  it('sets own values', () => {
    const out = apply({}, { metadata: { finalizers: ['a', 'b'] } }, { managers: new Map(), manager: 'one' });
    assert.deepEqual(owned(out.managers, 'one'), {
      'f:metadata': { 'f:finalizers': { 'v:"a"': {}, 'v:"b"': {} } },
    });
  });

  it('refuses undeclared fields, missing keys and duplicates', () => {
    assert.throws(
      () => apply({}, { spec: { bogus: 1 } }, { managers: new Map(), manager: 'one' }),
      new InvalidConfiguration('.spec.bogus: field not declared in schema'),
    );
    assert.throws(
      () => apply({}, pod([{ image: 'x' }]), { managers: new Map(), manager: 'one' }),
      new InvalidConfiguration(
        `.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`,
      ),
    );
    assert.throws(
      () => apply({}, pod([{ name: 'a' }, { name: 'a' }]), { managers: new Map(), manager: 'one' }),
      new InvalidConfiguration('.spec.containers: duplicate entries for key [name="a"]'),
    );
  });

  it('list keys take schema defaults', () => {
    const out = apply({}, pod([{ name: 'a', ports: [{ containerPort: 80 }] }]), {
      managers: new Map(),
      manager: 'one',
    });
    const ports = (
      owned(out.managers, 'one') as Record<string, Record<string, Record<string, Record<string, unknown>>>>
    )['f:spec']?.['f:containers']?.['k:{"name":"a"}']?.['f:ports'];
    assert.deepEqual(Object.keys(ports as object), ['k:{"containerPort":80,"protocol":"TCP"}']);
  });
});

describe('Updater.update', () => {
  it('gives the updater what it added and takes changed fields from appliers', () => {
    const first = apply({}, { metadata: { labels: { a: '1' } } }, { managers: new Map(), manager: 'one' });
    const live = first.object as JSONObject;
    const next = { metadata: { labels: { a: '2', b: '3' } } };
    const managers = updater.update({ live, next }, { version: v, managers: first.managers, manager: 'up' });
    assert.equal(managers.has('one'), false);
    assert.deepEqual(owned(managers, 'up'), { 'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } } });
  });

  it('records a whole new map as a member too', () => {
    const managers = updater.update(
      { live: {}, next: { metadata: { labels: { a: '1' } } } },
      { version: v, managers: new Map(), manager: 'up' },
    );
    assert.deepEqual(owned(managers, 'up'), {
      'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:a': {} } },
    });
  });

  it('gives and takes exactly what a typed compare of the two objects finds changed', () => {
    // The update compares the objects with the members they have equal shared first; the oracle
    // compares them as they are. Next is a copy, a copy with the spec's or the metadata's values
    // changed (the other member equal but not the same object), or another pod.
    const copy = (p: JSONObject): JSONObject => JSON.parse(JSON.stringify(p)) as JSONObject;
    const changed = (p: unknown): JSONValue =>
      JSON.parse(
        JSON.stringify(p).replaceAll('"1"', '"2"').replaceAll('"i"', '"j"').replaceAll('"x"', '"z"'),
      ) as JSONValue;
    const pair = podArbitrary.chain((live) =>
      fc.tuple(
        fc.constant(live),
        fc.oneof(
          fc.constant(copy(live)),
          fc.constant({ ...copy(live), spec: changed(live['spec']) }),
          fc.constant({ ...copy(live), metadata: changed(live['metadata']) }),
          podArbitrary,
        ),
      ),
    );
    fc.assert(
      fc.property(pair, ([live, next]) => {
        const before = toFieldSet(podResolver, podSchema, live).set;
        const managers: ManagedFieldSets = new Map([['one', { set: before, apiVersion: v, applied: true }]]);
        const out = updater.update({ live, next }, { version: v, managers, manager: 'up' });
        const cmp = compareValues(podResolver, podSchema, { lhs: live, rhs: next, goTyped: true });
        const changes = cmp.added.union(cmp.modified);
        const kept = before.difference(changes).difference(cmp.removed);
        assert.deepEqual(owned(out, 'up'), changes.empty() ? undefined : encodeFieldsV1(changes));
        assert.deepEqual(owned(out, 'one'), kept.empty() ? undefined : encodeFieldsV1(kept));
      }),
      { numRuns: 1000 },
    );
  });
});

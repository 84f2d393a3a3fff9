// The member order objects are stored and served in: a built-in kind's Go struct order at every
// level (builtinJSONCodec), a custom resource's keys sorted at every level with its resourceVersion
// where a sorted map has it (customResourceJSONCodec), through get, lists (filtered or not) and watch.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { SqliteBackend } from '../backends/sqlite/sqlite-backend.js';
import { builtinJSONCodec, customResourceJSONCodec, jsonCodec, type Codec } from '../codec.js';
import { servedFromObject } from '../encoded-reads.js';
import type { SelectionPredicate, WatchEvent } from '../interfaces.js';
import { KvStore } from './kv-store.js';

let backend: SqliteBackend;
const stops: (() => void)[] = [];
const open = (resource: string, codec: Codec): KvStore =>
  new KvStore<KubeObject>({ backend, groupResource: { group: '', resource }, codec });

const named = (name: string): SelectionPredicate => ({
  empty: () => false,
  matches: (obj) => obj.metadata?.name === name,
});

describe('KvStore member order', () => {
  before(async () => {
    backend = await SqliteBackend.open({ path: ':memory:', compaction: { intervalMs: 0 } });
  });
  after(async () => {
    for (const stop of stops) stop();
    await backend.close();
  });

  it('the codecs: Go order per scheme, sorted maps, and the same object back when it is in order', () => {
    const scheme = builtinScheme();
    assert.equal(builtinJSONCodec(scheme), builtinJSONCodec(scheme));
    const cm = { data: { b: '1', a: '2' }, metadata: { name: 'c' }, kind: 'ConfigMap', apiVersion: 'v1' };
    // With the zero creationTimestamp Go writes (a metav1.Time held by value), which decoding drops.
    const builtin = builtinJSONCodec(scheme);
    const bytes = builtin.encode(cm);
    assert.equal(
      bytes.toString(),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","creationTimestamp":null},"data":{"a":"2","b":"1"}}',
    );
    assert.deepEqual(builtin.decode(bytes), cm);
    assert.deepEqual(builtin.decoded(builtin.inOrder(cm)), cm);
    assert.equal(
      jsonCodec.encode(cm).toString(),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c"},"data":{"b":"1","a":"2"}}',
    );
    assert.equal(
      customResourceJSONCodec.encode(cm).toString(),
      '{"apiVersion":"v1","data":{"a":"2","b":"1"},"kind":"ConfigMap","metadata":{"name":"c"}}',
    );
    const ordered = builtinJSONCodec(scheme).inOrder(cm);
    assert.equal(builtinJSONCodec(scheme).inOrder(ordered), ordered);
    assert.ok(builtinJSONCodec(scheme).encodeInOrder(ordered).equals(builtinJSONCodec(scheme).encode(cm)));
  });

  it('an object handed to servedFromObject without a codec is encoded in the order it tells', () => {
    const widget = {
      apiVersion: 'e/v1',
      kind: 'W',
      metadata: { name: 'w', resourceVersion: '4', uid: 'u' },
      spec: { b: 1, a: 2 },
    };
    assert.equal(
      servedFromObject(widget).json.toString(),
      '{"apiVersion":"e/v1","kind":"W","metadata":{"name":"w","resourceVersion":"4","uid":"u"},"spec":{"a":2,"b":1}}',
    );
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { uid: 'u', name: 'c', resourceVersion: '4' },
    };
    assert.equal(
      servedFromObject(cm).json.toString(),
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","uid":"u","resourceVersion":"4"}}',
    );
  });

  it('a built-in object is stored, returned and served in Go order', async () => {
    const store = open('pods', builtinJSONCodec(builtinScheme()));
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns', uid: 'u' },
      spec: {
        containers: [{ image: 'i', name: 'c', ports: [{ containerPort: 80, name: 'http' }] }],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    };
    const created = await store.create('/pods/ns/p', pod);
    assert.deepEqual(Object.keys(created.spec as object), ['volumes', 'containers']);
    const served = String(await store.getEncoded('/pods/ns/p'));
    // What the write returns and what a read decodes are the same object, in the same order; the
    // bytes also hold the zero creationTimestamp Go writes, which decoding leaves out.
    assert.equal(JSON.stringify(await store.get('/pods/ns/p')), JSON.stringify(created));
    assert.equal(JSON.stringify(created), served.replace(',"creationTimestamp":null', ''));
    assert.match(
      served,
      /^\{"kind":"Pod","apiVersion":"v1","metadata":\{"name":"p","namespace":"ns","uid":"u","resourceVersion":"\d+","creationTimestamp":null\},"spec":\{"volumes":\[\{"name":"v","emptyDir":\{\}\}\],"containers":\[\{"name":"c","image":"i","ports":\[\{"name":"http","containerPort":80\}\],"resources":\{\}\}\]\},"status":\{\}\}$/,
    );
  });

  it('a custom resource is stored and served sorted, its resourceVersion among sorted metadata', async () => {
    const store = open('widgets', customResourceJSONCodec);
    const watch = await store.watch('/widgets/ns', { recursive: true });
    stops.push(() => {
      watch.stop();
    });
    const widget = (name: string): KubeObject => ({
      kind: 'Widget',
      apiVersion: 'example.com/v1',
      metadata: { name, namespace: 'ns', uid: `u-${name}`, labels: { z: '1', a: '2' } },
      spec: { size: 1, color: 'red' },
    });
    const created = await store.create('/widgets/ns/w1', widget('w1'));
    await store.create('/widgets/ns/w2', widget('w2'));
    const rv = created.metadata?.resourceVersion ?? '';
    const want =
      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{"a":"2","z":"1"},"name":"w1",` +
      `"namespace":"ns","resourceVersion":"${rv}","uid":"u-w1"},"spec":{"color":"red","size":1}}`;
    assert.equal(String(await store.getEncoded('/widgets/ns/w1')), want);
    // What the write returns, and a read that decodes, say the same in the same order.
    assert.equal(JSON.stringify(created), want);
    assert.equal(JSON.stringify(await store.get('/widgets/ns/w1')), want);
    const all = await store.getListEncoded('/widgets/ns', { recursive: true });
    assert.equal(String(all.items[0]), want);
    const filtered = await store.getListEncoded('/widgets/ns', { recursive: true, predicate: named('w1') });
    assert.deepEqual(filtered.items.map(String), [want]);
    const first: IteratorResult<WatchEvent> = await watch[Symbol.asyncIterator]().next();
    assert.ok(first.done !== true);
    assert.equal(first.value.type, 'ADDED');
    assert.equal(JSON.stringify(first.value.object), want);
  });
});

// Response bodies in kube's member order where a JavaScript object cannot hold it, and for a kind
// with no protobuf tables, over raw HTTP: a ConfigMap whose data, labels and annotations have keys
// like "10" and "9" (a JavaScript object lists such keys first, in numeric order; Go sorts a map's
// keys as strings), and a CustomResourceDefinition, which comes back in its Go structs' field order
// at every level (apiextensions-apiserver v1 types.go), from create, get, list, watch and update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { call, firstWatchObject } = raw;

/**
 * The text parsed with every key prefixed by `k:`, so that no key is an array index and every
 * object keeps the order its text has (JSON.parse alone would list "9" before "10"). Every string
 * token is matched from the left, so a key is a string followed by a colon.
 */
const parseKeepingOrder = (text: string): unknown =>
  JSON.parse(
    text.replace(/"(?:[^"\\]|\\.)*"(\s*:)?/g, (m: string, colon: string | undefined) =>
      colon === undefined ? m : `"k:${m.slice(1)}`,
    ),
  );

/** The keys of the object at `path` (names and list positions) in the order the text has them. */
function keysAt(text: string, ...path: (string | number)[]): string[] {
  let v = parseKeepingOrder(text);
  for (const p of path) v = (v as Record<string, unknown>)[typeof p === 'number' ? p : `k:${p}`];
  assert.ok(typeof v === 'object' && v !== null, `no object at ${path.join('.')}`);
  return Object.keys(v).map((k) => k.slice(2));
}

/**
 * The object `name` of `collection` as each way of reading it writes it, beside the create's answer:
 * GET, the list, a watch's first event and (with `pretty`) a pretty GET compacted again.
 */
async function servedTexts(
  collection: string,
  name: string,
  created: string,
  opts: { pretty?: boolean } = {},
): Promise<(readonly [string, string])[]> {
  const got = await call(`${collection}/${name}`);
  assert.equal(got.status, 200, got.text);
  const list = await call(collection);
  const watched = await firstWatchObject(
    `${collection}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3D${name}`,
  );
  const out: (readonly [string, string])[] = [
    ['create', created],
    ['get', got.text],
    ['list', list.text],
    ['watch', watched],
  ];
  if (opts.pretty === true) {
    const pretty = await call(`${collection}/${name}?pretty=true`);
    out.push([
      'get (pretty, compacted)',
      JSON.stringify(parseKeepingOrder(pretty.text)).replace(/"k:/g, '"'),
    ]);
  }
  return out;
}

const configMaps = '/api/v1/namespaces/default/configmaps';
// As a client may send it: keys in no order, several of them array indexes.
const configMapText =
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"digits","labels":{"app":"x","9":"a","10":"b"},' +
  '"annotations":{"b":"z","2":"x","10":"w","1":"y"}},"data":{"a":"A","9":"nine","_":"u","10":"ten","1":"one"}}';
// Go's json.Marshal of those maps: keys sorted as strings.
const goData = '"data":{"1":"one","10":"ten","9":"nine","_":"u","a":"A"}';
const goLabels = '"labels":{"10":"b","9":"a","app":"x"}';
const goAnnotations = '"annotations":{"1":"y","10":"w","2":"x","b":"z"}';

const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
// As kubectl sends it: keys sorted at every level.
const crdText = JSON.stringify({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'dials.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Dial', plural: 'dials', shortNames: ['dl'], singular: 'dial' },
    scope: 'Namespaced',
    versions: [
      {
        additionalPrinterColumns: [{ jsonPath: '.spec.size', name: 'Size', type: 'integer' }],
        name: 'v1',
        schema: {
          openAPIV3Schema: {
            properties: {
              spec: {
                properties: {
                  size: { default: 1, maximum: 9, minimum: 0, type: 'integer' },
                  marks: {
                    additionalProperties: { type: 'string' },
                    default: { b: '1', a: '2' },
                    type: 'object',
                  },
                },
                type: 'object',
                'x-kubernetes-preserve-unknown-fields': true,
                'x-kubernetes-validations': [{ message: 'too big', rule: 'self.size < 9' }],
              },
            },
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        },
        served: true,
        storage: true,
        subresources: { status: {} },
      },
    ],
  },
});

// apiextensions-apiserver pkg/apis/apiextensions/v1 types.go and types_jsonschema.go field order.
const crdGoOrder: { path: (string | number)[]; want: string[] }[] = [
  { path: [], want: ['kind', 'apiVersion', 'metadata', 'spec', 'status'] },
  { path: ['spec'], want: ['group', 'names', 'scope', 'versions', 'conversion'] },
  { path: ['spec', 'names'], want: ['plural', 'singular', 'shortNames', 'kind', 'listKind'] },
  {
    path: ['spec', 'versions', 0],
    want: ['name', 'served', 'storage', 'schema', 'subresources', 'additionalPrinterColumns'],
  },
  { path: ['spec', 'versions', 0, 'additionalPrinterColumns', 0], want: ['name', 'type', 'jsonPath'] },
  {
    path: ['spec', 'versions', 0, 'schema', 'openAPIV3Schema'],
    want: ['type', 'properties', 'x-kubernetes-preserve-unknown-fields'],
  },
  {
    path: ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'spec'],
    want: ['type', 'properties', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations'],
  },
  {
    path: ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'properties'],
    want: ['marks', 'size'],
  },
  {
    path: ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'properties', 'size'],
    want: ['type', 'default', 'maximum', 'minimum'],
  },
  {
    path: ['spec', 'versions', 0, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'properties', 'marks'],
    want: ['type', 'default', 'additionalProperties'],
  },
  {
    path: [
      'spec',
      'versions',
      0,
      'schema',
      'openAPIV3Schema',
      'properties',
      'spec',
      'properties',
      'marks',
      'default',
    ],
    want: ['a', 'b'],
  },
  {
    path: [
      'spec',
      'versions',
      0,
      'schema',
      'openAPIV3Schema',
      'properties',
      'spec',
      'x-kubernetes-validations',
      0,
    ],
    want: ['rule', 'message'],
  },
  { path: ['spec', 'conversion'], want: ['strategy'] },
];

function assertCRDInGoOrder(text: string, what: string): void {
  for (const { path, want } of crdGoOrder) {
    const got = keysAt(text, ...path);
    // Members the server adds (defaults, status) may be absent in one answer: compare those present.
    assert.deepEqual(
      got,
      want.filter((k) => got.includes(k)),
      `${what}: ${path.join('.')}`,
    );
    assert.ok(
      got.every((k) => want.includes(k)),
      `${what}: ${path.join('.')} has ${got.join(',')}`,
    );
  }
}

describe('member order of maps with index keys and of CustomResourceDefinitions', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  it('a ConfigMap’s data, labels and annotations come back with their keys sorted as Go sorts them', async () => {
    const created = await call(configMaps, { method: 'POST', text: configMapText });
    assert.equal(created.status, 201, created.text);
    for (const [what, text] of await servedTexts(configMaps, 'digits', created.text, { pretty: true })) {
      for (const part of [goData, goLabels, goAnnotations])
        assert.ok(text.includes(part), `${what}: ${text}`);
    }
    const patched = await call(`${configMaps}/digits`, {
      method: 'PATCH',
      text: '{"data":{"100":"hundred","2":"two"}}',
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.text);
    assert.ok(
      patched.text.includes(
        '"data":{"1":"one","10":"ten","100":"hundred","2":"two","9":"nine","_":"u","a":"A"}',
      ),
      patched.text,
    );
  });

  it('a CustomResourceDefinition comes back in Go’s field order at every level', async () => {
    const created = await call(crds, { method: 'POST', text: crdText });
    assert.equal(created.status, 201, created.text);
    assertCRDInGoOrder(created.text, 'create');
    const got = await call(`${crds}/dials.example.com`);
    assertCRDInGoOrder(got.text, 'get');
    assert.deepEqual(keysAt(got.text, 'status'), ['conditions', 'acceptedNames', 'storedVersions']);
    assert.deepEqual(keysAt(got.text, 'status', 'conditions', 0).slice(0, 2), ['type', 'status']);
    assert.deepEqual(keysAt(got.text, 'status', 'acceptedNames').slice(0, 1), ['plural']);
    const list = await call(crds);
    const items = (parseKeepingOrder(list.text) as { 'k:items': unknown[] })['k:items'];
    const item = items.find((i) => JSON.stringify(i).includes('"k:name":"dials.example.com"'));
    assert.ok(item !== undefined);
    assertCRDInGoOrder(
      JSON.stringify({ 'k:kind': 'x', 'k:apiVersion': 'y', ...(item as object) }).replace(/"k:/g, '"'),
      'list',
    );
    const watched = await firstWatchObject(
      `${crds}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Ddials.example.com`,
    );
    assertCRDInGoOrder(watched, 'watch');
    // An update sent in JavaScript's order (a client that is not kubectl): Go's order all the same.
    const {
      spec,
      status: _status,
      ...rest
    } = JSON.parse(got.text) as { spec: Record<string, unknown>; status: unknown };
    const { group, ...others } = spec;
    const reordered = { spec: { ...others, group }, ...rest };
    const updated = await call(`${crds}/dials.example.com`, {
      method: 'PUT',
      text: JSON.stringify(reordered),
    });
    assert.equal(updated.status, 200, updated.text);
    assertCRDInGoOrder(updated.text, 'update');
  });

  it('a custom resource with index keys, at the top level too: sorted as Go sorts a map, resourceVersion in place', async () => {
    const dials = '/apis/example.com/v1/namespaces/default/dials';
    const created = await call(dials, {
      method: 'POST',
      text:
        '{"apiVersion":"example.com/v1","kind":"Dial","metadata":{"name":"d","labels":{"9":"a","10":"b"}},' +
        '"spec":{"size":2,"9":{"b":1,"10":2},"10":"x"},"Zeta":1,"7":2}',
    });
    assert.equal(created.status, 201, created.text);
    for (const [what, text] of await servedTexts(dials, 'd', created.text)) {
      assert.ok(
        text.includes('"spec":{"10":"x","9":{"10":2,"b":1},"marks":{"a":"2","b":"1"},"size":2}'),
        `${what}: ${text}`,
      );
      assert.ok(
        text.includes('{"7":2,"Zeta":1,"apiVersion":"example.com/v1","kind":"Dial","metadata":{'),
        `${what}: ${text}`,
      );
      assert.ok(text.includes('"labels":{"10":"b","9":"a"}'), `${what}: ${text}`);
      assert.deepEqual(
        keysAt(text, ...(what === 'list' ? ['items', 0] : []), 'metadata'),
        [
          'creationTimestamp',
          'generation',
          'labels',
          'managedFields',
          'name',
          'namespace',
          'resourceVersion',
          'uid',
        ],
        what,
      );
    }
  });

  it('a ControllerRevision’s data (a RawExtension) keeps the order it was sent in, as far as an object can hold it', async () => {
    const revisions = '/apis/apps/v1/namespaces/default/controllerrevisions';
    const created = await call(revisions, {
      method: 'POST',
      text:
        '{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"rev","labels":{"b":"1","10":"2","9":"3"}},' +
        '"revision":1,"data":{"spec":{"z":1,"b":{"y":1,"10":2,"9":3,"a":"x"},"l":[{"q":{"2":0,"c":1}}]},"1":true}}',
    });
    assert.equal(created.status, 201, created.text);
    // kube writes the bytes as sent: {"spec":{"z":1,"b":{"y":1,"10":2,"9":3,…}…},"1":true}. The
    // parsed object lists "1", "9" and "10" first; everything else keeps the client's order.
    const data =
      '"data":{"1":true,"spec":{"z":1,"b":{"9":3,"10":2,"y":1,"a":"x"},"l":[{"q":{"2":0,"c":1}}]}}';
    for (const [what, text] of await servedTexts(revisions, 'rev', created.text, { pretty: true })) {
      assert.ok(text.includes(data), `${what}: ${text}`);
      assert.ok(text.includes('"labels":{"10":"2","9":"3","b":"1"}'), `${what}: ${text}`);
    }
  });
});

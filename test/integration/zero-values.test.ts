// Members without omitempty that an object lacks, through raw HTTP: kube decodes a built-in object
// into its Go struct and encodes it back, so a string without omitempty is written "" (a core
// Event's reportingComponent and reportingInstance), a nil slice or pointer null (a ClusterRole's
// rules). Expected bytes reasoned from k8s.io/api 1.33 core/v1 and rbac/v1 types.go (json tags
// without omitempty) and apimachinery meta/v1 time.go (a zero metav1.Time is written null). In
// memory those zeros are absent, whether sent or not: a GET's text PUT back changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { call } = raw;

/** The body text with the metadata members the server sets (their values vary) replaced by "…". */
function withoutServerMeta(text: string): string {
  const obj = JSON.parse(text) as { metadata: Record<string, unknown> };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields']) {
    if (k in obj.metadata) obj.metadata[k] = '…';
  }
  return JSON.stringify(obj);
}

const metaOf = (text: string): Record<string, unknown> =>
  (JSON.parse(text) as { metadata: Record<string, unknown> }).metadata;

const event = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'e1' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' },
  reason: 'Started',
  message: 'm',
  type: 'Normal',
};
const EVENT =
  '{"kind":"Event","apiVersion":"v1","metadata":{"name":"e1","namespace":"default","uid":"…","resourceVersion":"…","creationTimestamp":"…","managedFields":"…"},' +
  '"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},"reason":"Started","message":"m","source":{},' +
  '"firstTimestamp":null,"lastTimestamp":null,"type":"Normal","eventTime":null,"reportingComponent":"","reportingInstance":""}';

const clusterRole = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'zero-rules' },
};
// Only its name sent: its creator manages no field, so kube keeps no managedFields entry.
const CLUSTER_ROLE =
  '{"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"zero-rules","uid":"…","resourceVersion":"…","creationTimestamp":"…"},"rules":null}';

const cases = [
  { path: '/api/v1/namespaces/default/events', name: 'e1', body: event, want: EVENT },
  {
    path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    name: 'zero-rules',
    body: clusterRole,
    want: CLUSTER_ROLE,
  },
] as const;

describe('members without omitempty that an object lacks are written with their Go zero value', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  for (const c of cases) {
    it(`a ${c.body.kind}: create, get, a list's item and a PUT of the GET's text, which changes nothing`, async () => {
      const created = await call(c.path, { method: 'POST', body: c.body });
      assert.equal(created.status, 201, created.text);
      const got = await call(`${c.path}/${c.name}`);
      assert.equal(got.status, 200, got.text);
      for (const text of [created.text, got.text]) assert.equal(withoutServerMeta(text), c.want);
      const listed = await call(c.path);
      assert.ok(listed.text.includes(c.want.slice(c.want.indexOf('},') + 1, -1)), listed.text);
      // The GET's text, zeros included, PUT back: no write (same resourceVersion), same managedFields.
      const put = await call(`${c.path}/${c.name}`, { method: 'PUT', text: got.text });
      assert.equal(put.status, 200, put.text);
      assert.equal(metaOf(put.text)['resourceVersion'], metaOf(got.text)['resourceVersion']);
      assert.deepEqual(metaOf(put.text)['managedFields'], metaOf(got.text)['managedFields']);
      // An empty merge patch: nothing changes either.
      const patched = await call(`${c.path}/${c.name}`, {
        method: 'PATCH',
        contentType: 'application/merge-patch+json',
        body: {},
      });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(metaOf(patched.text)['resourceVersion'], metaOf(got.text)['resourceVersion']);
    });
  }

  it('an Event sent with "" for them holds nothing more: its managedFields name neither', async () => {
    const body = { ...event, metadata: { name: 'e2' }, reportingComponent: '', reportingInstance: '' };
    const created = await call('/api/v1/namespaces/default/events', { method: 'POST', body });
    assert.equal(created.status, 201, created.text);
    assert.equal(withoutServerMeta(created.text), EVENT.replace('"e1"', '"e2"'));
    assert.doesNotMatch(JSON.stringify(metaOf(created.text)['managedFields']), /reporting/);
  });
});

// A required scalar that a present struct lacks, through raw HTTP: kube decodes every built-in
// object into its Go struct, where a member without omitempty holds its zero, and writes it. A new
// ReplicaSet is served with "status":{"replicas":0} (k8s.io/api 1.33 apps/v1 ReplicaSetStatus.Replicas
// `json:"replicas"`), a StatefulSet with {"replicas":0,"availableReplicas":0}, a DaemonSet with its
// four counts, a PriorityClass without a value with "value":0. GET, LIST and WATCH write the same
// bytes; the create's managedFields do not mention status (the strategy resets it), and a status
// update sending `replicas` absent or 0 is one and the same write, as in kube.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { firstWatchObject } = raw;
/** The status and the body text without the newline the server ends it with. */
const call = async (...args: Parameters<RawHttp['call']>): Promise<{ status: number; text: string }> => {
  const res = await raw.call(...args);
  return { status: res.status, text: res.text.replace(/\n$/, '') };
};

type Obj = Record<string, unknown>;
type Entry = { manager?: string; subresource?: string; fieldsV1?: unknown };
const parse = (text: string): Obj & { metadata: Obj & { managedFields?: Entry[] } } =>
  JSON.parse(text) as Obj & { metadata: Obj & { managedFields?: Entry[] } };

const template = {
  metadata: { labels: { app: 'a' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};
const selector = { matchLabels: { app: 'a' } };

const cases = [
  {
    resource: 'replicasets',
    kind: 'ReplicaSet',
    spec: { replicas: 1, selector, template },
    status: '{"replicas":0}',
  },
  {
    resource: 'statefulsets',
    kind: 'StatefulSet',
    spec: { serviceName: 's', selector, template },
    status: '{"replicas":0,"availableReplicas":0}',
  },
  {
    resource: 'daemonsets',
    kind: 'DaemonSet',
    spec: { selector, template },
    status: '{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}',
  },
] as const;

const statusText = (text: string): string => {
  const at = text.lastIndexOf(',"status":');
  assert.ok(at > 0 && text.endsWith('}'), text);
  return text.slice(at + ',"status":'.length, -1);
};

describe('a required scalar a present struct lacks is served with its Go zero', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  for (const c of cases) {
    it(`a new ${c.kind}: create, GET, LIST and WATCH write ${c.status}; managedFields leave status out`, async () => {
      const collection = `/apis/apps/v1/namespaces/default/${c.resource}`;
      const body = { apiVersion: 'apps/v1', kind: c.kind, metadata: { name: 'z' }, spec: c.spec };
      const created = await call(`${collection}?fieldManager=creator`, { method: 'POST', body });
      assert.equal(created.status, 201, created.text);
      assert.equal(statusText(created.text), c.status);
      const got = await call(`${collection}/z`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.text, created.text);
      const watched = await firstWatchObject(
        `${collection}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dz`,
      );
      assert.equal(watched, got.text);
      const listed = await call(collection);
      assert.equal(listed.status, 200, listed.text);
      // A list's items are written without their kind and apiVersion.
      const item = `{"metadata":${got.text.slice(got.text.indexOf('"metadata":') + '"metadata":'.length)}`;
      assert.ok(listed.text.includes(`"items":[${item}]`), listed.text);
      const fields = parse(created.text).metadata.managedFields ?? [];
      assert.equal(fields.length, 1);
      assert.doesNotMatch(JSON.stringify(fields), /f:status/);
      // The GET's text, zeros included, PUT back: nothing to write.
      const put = await call(`${collection}/z`, { method: 'PUT', text: got.text });
      assert.equal(put.status, 200, put.text);
      assert.equal(put.text, got.text);
    });
  }

  it('a status update with replicas absent or 0: the same bytes and managedFields; from 2 to absent modifies it', async () => {
    const collection = '/apis/apps/v1/namespaces/default/replicasets';
    const created: Record<string, Obj> = {};
    for (const name of ['absent', 'zero']) {
      const body = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name }, spec: cases[0].spec };
      const res = await call(collection, { method: 'POST', body });
      assert.equal(res.status, 201, res.text);
      created[name] = parse(res.text);
    }
    const updateStatus = async (name: string, status: Obj, manager: string) => {
      const live = parse((await call(`${collection}/${name}`)).text);
      const res = await call(`${collection}/${name}/status?fieldManager=${manager}`, {
        method: 'PUT',
        body: { ...live, status },
      });
      assert.equal(res.status, 200, res.text);
      return res.text;
    };
    const statusFields = (text: string, manager: string): unknown =>
      parse(text).metadata.managedFields?.find((e) => e.manager === manager)?.fieldsV1;
    const absent = await updateStatus('absent', { observedGeneration: 1 }, 'ctl');
    const zero = await updateStatus('zero', { replicas: 0, observedGeneration: 1 }, 'ctl');
    assert.equal(statusText(absent), '{"replicas":0,"observedGeneration":1}');
    assert.equal(statusText(zero), statusText(absent));
    const observed = { 'f:status': { 'f:observedGeneration': {} } };
    assert.deepEqual(statusFields(absent, 'ctl'), observed);
    assert.deepEqual(statusFields(zero, 'ctl'), observed);
    // Set to 2, then sent without it: Go reads 0, a change of replicas the new manager records.
    const two = await updateStatus('absent', { replicas: 2, observedGeneration: 1 }, 'scaler');
    assert.deepEqual(statusFields(two, 'scaler'), { 'f:status': { 'f:replicas': {} } });
    const back = await updateStatus('absent', { observedGeneration: 1 }, 'resetter');
    assert.equal(statusText(back), '{"replicas":0,"observedGeneration":1}');
    assert.deepEqual(statusFields(back, 'resetter'), { 'f:status': { 'f:replicas': {} } });
    // Sent again as 0: nothing changes, no new write.
    const again = await updateStatus('absent', { replicas: 0, observedGeneration: 1 }, 'resetter');
    assert.equal(again, back);
  });

  it('a condition a status update adds records the members its Go item holds though not sent', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    const body = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cond' }, spec: template.spec };
    const created = await call(pods, { method: 'POST', body });
    assert.equal(created.status, 201, created.text);
    const live = parse(created.text);
    const status = { ...(live['status'] as Obj), conditions: [{ type: 'Ready', status: 'True' }] };
    const res = await call(`${pods}/cond/status?fieldManager=kubelet`, {
      method: 'PUT',
      body: { ...live, status },
    });
    assert.equal(res.status, 200, res.text);
    // kube's typed compare visits every member of the converted PodCondition: its zero times too.
    assert.deepEqual(parse(res.text).metadata.managedFields?.find((e) => e.manager === 'kubelet')?.fieldsV1, {
      'f:status': {
        'f:conditions': {
          '.': {},
          'k:{"type":"Ready"}': {
            '.': {},
            'f:lastProbeTime': {},
            'f:lastTransitionTime': {},
            'f:status': {},
            'f:type': {},
          },
        },
      },
    });
    assert.match(
      res.text,
      /"conditions":\[\{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":null\}\]/,
    );
  });

  it('a PriorityClass sent without its value is served with "value":0, as kube writes its int32', async () => {
    const collection = '/apis/scheduling.k8s.io/v1/priorityclasses';
    const body = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'nothing' } };
    const created = await call(collection, { method: 'POST', body });
    assert.equal(created.status, 201, created.text);
    assert.match(created.text, /"value":0,"preemptionPolicy":"PreemptLowerPriority"}$/);
    const got = await call(`${collection}/nothing`);
    assert.equal(got.text, created.text);
  });
});

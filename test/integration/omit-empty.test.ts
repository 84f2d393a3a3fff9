// Built-in objects sent with empty members come back as kube writes them: kube-apiserver decodes a
// built-in object into its Go struct and encodes it back, so a field tagged `json:",omitempty"` that
// holds its zero value ("" , 0, false, an empty or null list or map, a null pointer) is gone from
// the create response, a GET and a watch event alike, while a pointer to a zero value (replicas: 0,
// immutable: false), a struct (status: {}, resources: {}) and a field without omitempty stay. The
// expected bodies are reasoned from k8s.io/api and apiextensions-apiserver 1.33 json tags; server-set
// metadata (uid, resourceVersion, creationTimestamp, managedFields) is taken out before comparing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { RawHttp } from './support/raw-http.js';

let server: CapstanServer;
const raw = new RawHttp(() => server);
const { call, firstWatchObject } = raw;

/**
 * The body text without the metadata members the server sets (their values vary), and nothing else
 * changed: the members keep the text's order (no key below is an array index, so JSON.parse keeps it).
 */
function withoutServerMeta(text: string): string {
  const obj = JSON.parse(text) as { kind: string; metadata: Record<string, unknown>; status?: unknown };
  if (obj.kind === 'CustomResourceDefinition') obj.status = '…';
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation']) {
    if (k in obj.metadata) obj.metadata[k] = '…';
  }
  return JSON.stringify(obj);
}

/** Creates the object, then reads it with GET and a watch; each answer must be `want`. */
async function assertCreatedAs(collection: string, name: string, sent: unknown, want: string): Promise<void> {
  const created = await call(collection, { method: 'POST', text: JSON.stringify(sent) });
  assert.equal(created.status, 201, created.text);
  const got = await call(`${collection}/${name}`);
  assert.equal(got.status, 200, got.text);
  const watched = await firstWatchObject(
    `${collection}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3D${name}`,
  );
  for (const [what, text] of [
    ['create', created.text],
    ['get', got.text],
    ['watch', watched],
  ] as const) {
    assert.equal(withoutServerMeta(text), want, what);
  }
}

const POD =
  '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"empty","namespace":"default","uid":"…","resourceVersion":"…","generation":"…","creationTimestamp":"…","managedFields":"…"},' +
  '"spec":{"containers":[{"name":"c","image":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],' +
  '"restartPolicy":"Always","terminationGracePeriodSeconds":0,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default","automountServiceAccountToken":false,' +
  '"securityContext":{},"schedulerName":"default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},' +
  '{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},' +
  '"status":{"phase":"Pending","qosClass":"BestEffort"}}';
// The template's metadata has "creationTimestamp":null, as kube writes it: a metav1.Time held by
// value is never empty to omitempty, and its zero value is written as null whether sent or not.
const DEPLOYMENT =
  '{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"empty","namespace":"default","uid":"…","resourceVersion":"…","generation":"…","creationTimestamp":"…","managedFields":"…"},' +
  '"spec":{"replicas":0,"selector":{"matchLabels":{"app":"e"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"e"}},' +
  '"spec":{"containers":[{"name":"c","image":"nginx","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"Always"}],' +
  '"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},' +
  '"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":0,"progressDeadlineSeconds":600},"status":{}}';
// The status (set by the server, with times) is left out of the comparison.
const CRD =
  '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"blanks.example.com","uid":"…","resourceVersion":"…","generation":"…","creationTimestamp":"…","managedFields":"…"},' +
  '"spec":{"group":"example.com","names":{"plural":"blanks","singular":"blank","kind":"Blank","listKind":"BlankList"},"scope":"Namespaced",' +
  '"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}],' +
  '"conversion":{"strategy":"None"}},"status":"…"}';

const emptyMeta = { labels: {}, annotations: {}, finalizers: [], ownerReferences: [], generateName: '' };

describe('built-in objects without the members Go’s omitempty leaves out', () => {
  before(async () => {
    server = await startCapstan({ storage: 'memory', scheme: 'http' });
  });
  after(async () => {
    raw.close();
    await server.stop();
  });

  it('a ConfigMap: empty data, binaryData and metadata maps go, immutable: false stays', async () => {
    await assertCreatedAs(
      '/api/v1/namespaces/default/configmaps',
      'empty',
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'empty', ...emptyMeta },
        data: {},
        binaryData: {},
        immutable: false,
      },
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"empty","namespace":"default","uid":"…","resourceVersion":"…","creationTimestamp":"…","managedFields":"…"},"immutable":false}',
    );
  });
  it('a Pod: empty metadata maps and lists, args, env, nodeSelector go; false and 0 pointers and status stay', async () => {
    await assertCreatedAs(
      '/api/v1/namespaces/default/pods',
      'empty',
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'empty', ...emptyMeta },
        spec: {
          volumes: [],
          containers: [
            {
              name: 'c',
              image: 'nginx',
              command: null,
              args: [],
              env: [],
              ports: [],
              workingDir: '',
              stdin: false,
              resources: {},
            },
          ],
          nodeSelector: {},
          nodeName: '',
          hostNetwork: false,
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 0,
          tolerations: [],
          affinity: null,
        },
      },
      POD,
    );
  });

  it('a Deployment: replicas 0 and revisionHistoryLimit 0 stay, paused false and minReadySeconds 0 go', async () => {
    await assertCreatedAs(
      '/apis/apps/v1/namespaces/default/deployments',
      'empty',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'empty', ...emptyMeta },
        spec: {
          replicas: 0,
          revisionHistoryLimit: 0,
          minReadySeconds: 0,
          paused: false,
          selector: { matchLabels: { app: 'e' }, matchExpressions: [] },
          template: {
            metadata: { labels: { app: 'e' }, annotations: {} },
            spec: { containers: [{ name: 'c', image: 'nginx', args: [], env: [] }], nodeSelector: {} },
          },
        },
      },
      DEPLOYMENT,
    );
  });

  it('a CustomResourceDefinition: empty JSONSchemaProps members and deprecated: false go', async () => {
    await assertCreatedAs(
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      'blanks.example.com',
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'blanks.example.com', labels: {}, finalizers: [] },
        spec: {
          group: 'example.com',
          names: { plural: 'blanks', singular: 'blank', kind: 'Blank', shortNames: [], categories: [] },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              deprecated: false,
              additionalPrinterColumns: [],
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  description: '',
                  required: [],
                  nullable: false,
                  properties: {
                    spec: { type: 'object', properties: {}, 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
              },
            },
          ],
        },
      },
      CRD,
    );
  });

  it('a scalar field sent as its zero value is absent before the field manager, as in kube: no managedFields entry for it', async () => {
    const body = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'zero-fields', generateName: '', namespace: '' },
      data: { a: '1' },
    };
    const created = await call('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      text: JSON.stringify(body),
    });
    assert.equal(created.status, 201, created.text);
    const obj = JSON.parse(created.text) as { metadata: { managedFields?: { fieldsV1?: unknown }[] } };
    // kube decodes "" into the Go struct's string, which the field manager's converter leaves out
    // (omitempty): it records data, never f:generateName or f:namespace.
    assert.deepEqual(
      obj.metadata.managedFields?.map((m) => m.fieldsV1),
      [{ 'f:data': { '.': {}, 'f:a': {} } }],
    );
  });

  it('a dry run answers as a stored write would: Go member order, empty omitempty members left out', async () => {
    const body = {
      data: {},
      metadata: { labels: { b: '2', a: '1' }, annotations: {}, name: 'dry', namespace: 'default' },
      kind: 'ConfigMap',
      apiVersion: 'v1',
    };
    const dry = await call('/api/v1/namespaces/default/configmaps?dryRun=All', {
      method: 'POST',
      text: JSON.stringify(body),
    });
    assert.equal(dry.status, 201, dry.text);
    assert.match(
      dry.text,
      /^\{"kind":"ConfigMap","apiVersion":"v1","metadata":\{"name":"dry","namespace":"default","uid":"[^"]+","creationTimestamp":"[^"]+","labels":\{"a":"1","b":"2"\},"managedFields":\[[^\]]*\]\}\}\n?$/,
    );
  });
});

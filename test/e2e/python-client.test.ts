// The official Python client (Debian's python3-kubernetes 22.6.0) against a Capstan process, as an
// operator or tool written in Python uses it: load_kube_config on Capstan's kubeconfig (TLS, bearer
// token), CoreV1Api, AppsV1Api, ApiextensionsV1Api, CustomObjectsApi, watch.Watch and the
// DynamicClient. Two scripts (test/e2e/support/python/) run side by side in namespaces of their own
// and print what the client got back; the expectations are kube-apiserver's answers, checked here.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { subdomainMsg } from '../../src/machinery/validation/testing/kube-messages.js';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import {
  apiException as failed,
  createdByClient,
  describeWithPythonClient,
  runPythonScript,
  section,
  serverFilled,
  uuid,
  type PythonReport,
  type ServerFilled,
} from './support/python-client.js';

const coreNs = 'python-core';
const extNs = 'python-extensions';
// The models parse timestamps into aware datetimes; serialized back, UTC reads +00:00.
const utcSecond = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const widgets = 'pyclient.example.com';

describeWithPythonClient('the Python client (python3-kubernetes 22.6) against capstan', () => {
  let capstan: CapstanProcess;
  let core: Promise<PythonReport>;
  let extensions: Promise<PythonReport>;

  before(async () => {
    capstan = await startCapstanProcess();
    // Each script pays for importing kubernetes (most of a second): two of them, run at once.
    core = runPythonScript('core.py', [capstan.kubeconfigPath, coreNs]);
    extensions = runPythonScript('extensions.py', [capstan.kubeconfigPath, extNs]);
    // Awaited by the tests below; a failure is theirs to report, not an unhandled rejection.
    for (const run of [core, extensions]) run.catch(() => undefined);
  });

  after(async () => {
    // The scripts end on their own; a test that failed early must not stop the server under them.
    await Promise.allSettled([core, extensions]);
    await capstan.stop();
  });

  it('loads the kubeconfig (TLS, bearer token) and creates a namespace', async () => {
    const expected = { type: 'V1Namespace', name: coreNs, phase: 'Active', finalizers: ['kubernetes'] };
    assert.deepEqual(section(await core, 'namespace'), expected);
  });

  it('creates, reads, lists, replaces, patches (strategic, JSON, merge) and deletes a ConfigMap', async () => {
    const crud = section<Record<string, unknown>>(await core, 'crud');
    const created = crud['created'] as { metadata: ServerFilled };
    const { uid, resourceVersion, creationTimestamp, managedTime } = serverFilled(
      created.metadata,
      utcSecond,
    );
    const stored = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { a: '1' },
      metadata: {
        name: 'crud',
        namespace: coreNs,
        labels: { app: 'py' },
        uid,
        resourceVersion,
        creationTimestamp,
        managedFields: [
          createdByClient('v1', managedTime, {
            'f:data': { '.': {}, 'f:a': {} },
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          }),
        ],
      },
    };
    assert.deepEqual(created, stored);
    assert.equal(crud['createdType'], 'V1ConfigMap');
    assert.deepEqual(crud['read'], stored);
    assert.deepEqual(crud['list'], {
      type: 'V1ConfigMapList',
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      names: ['crud'],
    });
    const replaced = crud['replaced'] as { data: unknown; resourceVersion: string };
    assert.deepEqual(replaced.data, { a: '2' });
    assert.ok(Number(replaced.resourceVersion) > Number(resourceVersion), replaced.resourceVersion);
    assert.deepEqual(crud['strategic'], {
      data: { a: '2', b: '3' },
      labels: { app: 'py', via: 'strategic' },
    });
    assert.deepEqual(crud['jsonPatch'], { a: 'json', b: '3' });
    // A merge patch's null removes the key.
    assert.deepEqual(crud['merge'], { a: 'json', c: 'merged' });
    assert.deepEqual(crud['deleted'], {
      type: 'V1Status',
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'crud', kind: 'configmaps', uid },
    });
    // A dry run answers with the object it would have stored (no resourceVersion yet) and stores nothing.
    assert.deepEqual(crud['dryRun'], { name: 'dry', resourceVersion: null, hasUid: true, readBack: 404 });
  });

  it('pages a list with limit and _continue, and filters by label and field selectors', async () => {
    const report = await core;
    // kube-root-ca.crt and p1..p4; without a selector each page says how many items remain.
    assert.deepEqual(section(report, 'paging'), [
      { names: ['kube-root-ca.crt', 'p1'], continue: true, remainingItemCount: 3 },
      { names: ['p2', 'p3'], continue: true, remainingItemCount: 1 },
      { names: ['p4'], continue: false, remainingItemCount: null },
    ]);
    assert.deepEqual(section(report, 'selectors'), {
      'tier=front': ['p1', 'p3'],
      'tier in (front,back),!legacy': ['p1', 'p2', 'p3'],
      'metadata.name=p2': ['p2'],
      'tier=back + metadata.name!=p2': ['p4'],
    });
  });

  it('raises ApiException with the status, reason phrase and Status body of kube-apiserver', async () => {
    const errors = section<{ takenUid: string }>(await core, 'errors');
    const { takenUid } = errors;
    assert.match(takenUid, uuid);
    assert.deepEqual(errors, {
      takenUid,
      notFound: failed(404, 'Not Found', {
        reason: 'NotFound',
        message: 'configmaps "absent" not found',
        details: { name: 'absent', kind: 'configmaps' },
      }),
      alreadyExists: failed(409, 'Conflict', {
        reason: 'AlreadyExists',
        message: 'configmaps "taken" already exists',
        details: { name: 'taken', kind: 'configmaps' },
      }),
      conflict: failed(409, 'Conflict', {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on configmaps "taken": the object has been modified; ' +
          'please apply your changes to the latest version and try again',
        details: { name: 'taken', kind: 'configmaps' },
      }),
      invalid: failed(422, 'Unprocessable Entity', {
        reason: 'Invalid',
        message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${subdomainMsg}`,
        details: {
          name: 'Bad_Name',
          kind: 'ConfigMap',
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: `Invalid value: "Bad_Name": ${subdomainMsg}`,
              field: 'metadata.name',
            },
          ],
        },
      }),
      badFieldSelector: failed(400, 'Bad Request', {
        reason: 'BadRequest',
        message: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
      }),
      // rest.BeforeDelete's early check names the kind, not the resource.
      uidPrecondition: failed(409, 'Conflict', {
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on ConfigMap "taken": the UID in the precondition ' +
          `(00000000-0000-0000-0000-000000000000) does not match the UID in record (${takenUid}). ` +
          'The object might have been deleted and then recreated',
        details: { name: 'taken', kind: 'ConfigMap' },
      }),
    });
  });

  it('streams ADDED, MODIFIED and DELETED from a resourceVersion, as V1ConfigMap objects', async () => {
    const watched = section<{
      start: string;
      lastSeen: string;
      events: { type: string; resourceVersion: string }[];
      writeErrors: string[];
    }>(await core, 'watch');
    assert.deepEqual(watched.writeErrors, []);
    const base = { objectType: 'V1ConfigMap', name: 'watched', kind: 'ConfigMap', apiVersion: 'v1' };
    assert.deepEqual(
      watched.events.map(({ resourceVersion: _, ...event }) => event),
      [
        { ...base, type: 'ADDED', data: { v: '1' } },
        { ...base, type: 'MODIFIED', data: { v: '2' } },
        // The object as it was last, at the deletion's resourceVersion.
        { ...base, type: 'DELETED', data: { v: '2' } },
      ],
    );
    const versions = [watched.start, ...watched.events.map((e) => e.resourceVersion)].map(Number);
    assert.ok(
      versions.every((v, i) => i === 0 || v > (versions[i - 1] ?? v)),
      `increasing: ${versions.join()}`,
    );
    assert.equal(watched.lastSeen, watched.events.at(-1)?.resourceVersion);
  });

  it('applies server-side through patch_namespaced_config_map with a field manager', async () => {
    const applyData = (manager: string, keys: string[]): unknown => ({
      manager,
      operation: 'Apply',
      fieldsV1: { 'f:data': Object.fromEntries(keys.map((k) => [`f:${k}`, {}])) },
    });
    assert.deepEqual(section(await core, 'apply'), {
      created: { data: { owned: 'py', shared: 'a' }, managers: [applyData('pytool', ['owned', 'shared'])] },
      conflict: failed(409, 'Conflict', {
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "pytool": .data.shared',
        details: {
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "pytool"', field: '.data.shared' },
          ],
        },
      }),
      forced: {
        data: { owned: 'py', shared: 'b' },
        managers: [applyData('other', ['shared']), applyData('pytool', ['owned'])],
      },
      noFieldManager: failed(422, 'Unprocessable Entity', {
        reason: 'Invalid',
        message:
          'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        details: {
          group: 'meta.k8s.io',
          kind: 'PatchOptions',
          causes: [
            {
              reason: 'FieldValueRequired',
              message: 'Required value: is required for apply patch',
              field: 'fieldManager',
            },
          ],
        },
      }),
    });
  });

  it('creates a Deployment, reads it back defaulted, and patches a container by name', async () => {
    const container = {
      imagePullPolicy: 'IfNotPresent',
      resources: {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    };
    assert.deepEqual(section(await extensions, 'deployment'), {
      type: 'V1Deployment',
      generation: 1,
      spec: {
        replicas: 1,
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { ...container, name: 'app', image: 'nginx:1.25', env: [{ name: 'MODE', value: 'py' }] },
              { ...container, name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '3600'] },
            ],
            dnsPolicy: 'ClusterFirst',
            restartPolicy: 'Always',
            schedulerName: 'default-scheduler',
            securityContext: {},
            terminationGracePeriodSeconds: 30,
          },
        },
      },
      // IntOrString arrives as the string it is.
      maxSurge: '25%',
      // Strategic merge: the app's env and the sidecar stay.
      patched: {
        generation: 2,
        containers: [
          { name: 'app', image: 'nginx:1.26', env: [{ name: 'MODE', value: 'py' }] },
          { name: 'sidecar', image: 'busybox:1.36', env: null },
        ],
      },
    });
  });

  it('creates a CRD that the client sees Established, with its accepted names', async () => {
    assert.deepEqual(section(await extensions, 'crd'), {
      conditions: [
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      ],
      acceptedNames: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
      storedVersions: ['v1'],
    });
  });

  it('creates, gets, lists, merge-patches and deletes custom objects, status subresource included', async () => {
    const objects = section<Record<string, unknown>>(await extensions, 'customObjects');
    const created = objects['created'] as { metadata: ServerFilled };
    // Custom objects stay plain dicts: timestamps as the server wrote them.
    const utc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    const { uid, resourceVersion, creationTimestamp, managedTime } = serverFilled(created.metadata, utc);
    assert.deepEqual(created, {
      apiVersion: `${widgets}/v1`,
      kind: 'Widget',
      metadata: {
        name: 'w1',
        namespace: extNs,
        labels: { color: 'blue' },
        generation: 1,
        uid,
        resourceVersion,
        creationTimestamp,
        managedFields: [
          createdByClient(`${widgets}/v1`, managedTime, {
            'f:metadata': { 'f:labels': { '.': {}, 'f:color': {} } },
            'f:spec': { '.': {}, 'f:size': {} },
          }),
        ],
      },
      spec: { size: 1 },
    });
    assert.deepEqual(objects['got'], created);
    assert.deepEqual(objects['list'], {
      kind: 'WidgetList',
      apiVersion: `${widgets}/v1`,
      names: ['w1'],
    });
    assert.deepEqual(objects['patched'], { spec: { size: 2, color: 'green' }, generation: 2 });
    // Through /status only the status changes; through the object itself only the rest does.
    assert.deepEqual(objects['status'], {
      spec: { size: 2, color: 'green' },
      status: { ready: true },
      generation: 2,
    });
    assert.deepEqual(objects['statusViaMain'], { status: { ready: true }, generation: 2 });
    const deleted = objects['deleted'] as { details: { uid: string } };
    assert.match(deleted.details.uid, uuid);
    assert.deepEqual(deleted, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'w2', group: widgets, kind: 'widgets', uid: deleted.details.uid },
    });
    assert.deepEqual(
      objects['missing'],
      failed(404, 'Not Found', {
        reason: 'NotFound',
        message: `widgets.${widgets} "w2" not found`,
        details: { name: 'w2', group: widgets, kind: 'widgets' },
      }),
    );
  });

  it('raises 410 Expired for a watch from before the custom resource was served', async () => {
    const report = await extensions;
    const tooOld = section<{ resourceVersion: string }>(report, 'namespace').resourceVersion;
    const { expired } = section<{ expired: { status: number; reason: string } }>(report, 'customObjects');
    // watch.Watch turns the ERROR event into ApiException(status=code, reason="<reason>: <message>").
    assert.equal(expired.status, 410);
    const [, from, oldest] =
      /^Expired: too old resource version: (\d+) \((\d+)\)$/.exec(expired.reason) ?? [];
    assert.equal(from, tooOld, expired.reason);
    assert.ok(Number(oldest) > Number(tooOld), expired.reason);
  });

  it("finds a core kind and a CRD's kind through the DynamicClient, and creates and gets through it", async () => {
    const verbs = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
    const resource = { namespaced: true, verbs };
    assert.deepEqual(section(await extensions, 'dynamic'), {
      resources: [
        { ...resource, name: 'configmaps', kind: 'ConfigMap', groupVersion: 'v1', subresources: [] },
        {
          ...resource,
          name: 'widgets',
          kind: 'Widget',
          groupVersion: `${widgets}/v1`,
          subresources: ['status'],
        },
      ],
      configMap: { kind: 'ConfigMap', data: { via: 'dynamic' } },
      widget: { kind: 'Widget', name: 'w3', size: 3, names: ['w1', 'w3'] },
      missing: {
        type: 'NotFoundError',
        status: 404,
        summary: `widgets.${widgets} "absent" not found`,
      },
    });
  });
});

// Pods and PersistentVolumes as protobuf request bodies through the API handler, over the real pod
// and persistentvolume storages: the Go embedded structs (VolumeSource, ProbeHandler,
// PersistentVolumeSource, EphemeralContainerCommon, LocalObjectReference) arrive as their own
// messages and are stored as the flat JSON kube serves. Answers stay JSON.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inject, type InjectOptions, type Response } from 'light-my-request';
import { builtinScheme } from '../api/builtin-scheme.js';
import type { Pod } from '../api/core/v1/pod.js';
import {
  entry,
  kubeProtobuf,
  objectMeta,
  pb,
  type ProtoWriter,
} from '../machinery/protobuf/testing/proto-writer.js';
import { EphemeralContainersREST } from '../registry/core/pod/ephemeral-containers.js';
import { newPodREST } from '../registry/core/pod/storage.js';
import { newPersistentVolumeREST } from '../registry/core/persistentvolume/storage.js';
import {
  memoryRESTOptions,
  type MemoryRESTOptions,
} from '../registry/generic/testing/memory-rest-options.js';
import type { APIGroupInfo } from '../registry/rest/api-group-info.js';
import { createAPIHandler, type APIHandler } from './api-handler.js';
import { testUser } from './testing/core-api.js';

const protobuf = 'application/vnd.kubernetes.protobuf';
const headers = { 'content-type': protobuf, accept: `${protobuf},application/json` };
const pods = '/api/v1/namespaces/default/pods';

const intPort = (n: number): ProtoWriter => pb().varint(1, 0).varint(2, n).string(3, '');
const namedPort = (s: string): ProtoWriter => pb().varint(1, 1).varint(2, 0).string(3, s);

// A Container as gogo writes it: every non-pointer field, pointers only when set.
function container(name: string, extra: (c: ProtoWriter) => ProtoWriter = (c) => c): ProtoWriter {
  return extra(pb().string(1, name).string(2, 'nginx:1.25').string(5, ''))
    .message(8, pb())
    .string(13, '/dev/termination-log')
    .string(14, 'IfNotPresent')
    .bool(16, false)
    .bool(17, false)
    .bool(18, false)
    .string(20, 'File');
}

const probe = (handler: ProtoWriter): ProtoWriter =>
  pb().message(1, handler).varint(2, 0).varint(3, 1).varint(4, 10).varint(5, 1).varint(6, 3);

const app = container('app', (c) =>
  c
    .message(
      7,
      pb()
        .string(1, 'DB_PASSWORD')
        .string(2, '')
        .message(3, pb().message(4, pb().message(1, pb().string(1, 'db')).string(2, 'password'))),
    )
    .message(
      7,
      pb()
        .string(1, 'NS')
        .string(2, '')
        .message(3, pb().message(1, pb().string(1, 'v1').string(2, 'metadata.namespace'))),
    )
    .message(9, pb().string(1, 'cfg').bool(2, true).string(3, '/etc/app').string(4, '').string(6, ''))
    .message(
      10,
      probe(
        pb().message(
          2,
          pb().string(1, '/healthz').message(2, namedPort('http')).string(3, '').string(4, 'HTTP'),
        ),
      ),
    )
    .message(11, probe(pb().message(3, pb().message(1, intPort(8080)).string(2, ''))))
    .message(22, probe(pb().message(4, pb().varint(1, 9090))))
    .message(12, pb().message(2, pb().message(1, pb().string(1, 'nginx').string(1, '-s').string(1, 'quit')))),
);

function podBody(name: string): Buffer {
  const spec = pb()
    .message(
      1,
      pb()
        .string(1, 'cfg')
        .message(2, pb().message(19, pb().message(1, pb().string(1, 'app-config')).varint(3, 420))),
    )
    .message(
      1,
      pb()
        .string(1, 'tmp')
        .message(2, pb().message(2, pb().string(1, 'Memory'))),
    )
    .message(2, app)
    .string(3, 'Always')
    .string(6, 'ClusterFirst');
  return kubeProtobuf(
    { apiVersion: 'v1', kind: 'Pod' },
    pb().message(1, objectMeta(name, 'default')).message(2, spec),
  );
}

describe('protobuf Pod and PersistentVolume bodies', () => {
  let rest: MemoryRESTOptions;
  let handler: APIHandler;
  const request = (o: InjectOptions): Promise<Response> =>
    inject((req, res) => {
      void handler.handle(req, res, { user: testUser }).then((served) => {
        if (!served) {
          res.statusCode = 404;
          res.end();
        }
      });
    }, o);

  before(async () => {
    rest = await memoryRESTOptions();
    const opts = { restOptionsGetter: rest.getter };
    const p = await newPodREST(opts);
    const pv = await newPersistentVolumeREST(opts);
    const group: APIGroupInfo = {
      group: '',
      prioritizedVersions: ['v1'],
      versionedResourcesStorageMap: {
        v1: {
          pods: p.pods,
          'pods/status': p.status,
          'pods/ephemeralcontainers': new EphemeralContainersREST(p.pods),
          persistentvolumes: pv.persistentVolumes,
        },
      },
    };
    handler = createAPIHandler({ groups: [group], scheme: builtinScheme(), minRequestTimeoutSeconds: 2 });
  });
  after(() => rest.close());

  it('creates a pod whose volumes, probes, hooks and env sources came as embedded messages', async () => {
    const res = await request({ method: 'POST', url: pods, headers, payload: podBody('web') });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const pod = res.json<Pod>();
    assert.deepEqual(pod.spec?.volumes, [
      { name: 'cfg', configMap: { name: 'app-config', defaultMode: 420 } },
      { name: 'tmp', emptyDir: { medium: 'Memory' } },
    ]);
    const c = pod.spec.containers[0];
    assert.ok(c !== undefined);
    assert.deepEqual(c.env, [
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
      { name: 'NS', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } } },
    ]);
    assert.deepEqual(c.livenessProbe?.httpGet, { path: '/healthz', port: 'http', scheme: 'HTTP' });
    assert.deepEqual(c.readinessProbe?.tcpSocket, { port: 8080 });
    // GRPCAction.service is a Go pointer kube defaults to "".
    assert.deepEqual(c.startupProbe?.grpc, { port: 9090, service: '' });
    assert.deepEqual(c.lifecycle, { preStop: { exec: { command: ['nginx', '-s', 'quit'] } } });
    assert.deepEqual(c.volumeMounts, [{ name: 'cfg', readOnly: true, mountPath: '/etc/app' }]);
    const got = await request({ method: 'GET', url: `${pods}/web` });
    assert.deepEqual(got.json<Pod>().spec, pod.spec);
  });

  it('adds an ephemeral container sent as protobuf to pods/<name>/ephemeralcontainers', async () => {
    const current = await request({ method: 'GET', url: `${pods}/web` });
    const pod = current.json<Pod>();
    const meta = pb()
      .string(1, 'web')
      .string(3, 'default')
      .string(5, pod.metadata?.uid ?? '')
      .string(6, pod.metadata?.resourceVersion ?? '')
      .message(8, pb());
    const spec = pb()
      .message(2, container('app'))
      .message(
        34,
        pb()
          .message(1, container('debugger', (c) => c.string(3, 'sh')).bool(16, true))
          .string(2, 'app'),
      );
    const body = kubeProtobuf({ apiVersion: 'v1', kind: 'Pod' }, pb().message(1, meta).message(2, spec));
    const res = await request({
      method: 'PUT',
      url: `${pods}/web/ephemeralcontainers`,
      headers,
      payload: body,
    });
    assert.equal(res.statusCode, 200, res.body);
    const ephemeral = res.json<Pod>().spec?.ephemeralContainers ?? [];
    assert.deepEqual(
      ephemeral.map((e) => [e.name, e.image, e.command, e.stdin, e.targetContainerName]),
      [['debugger', 'nginx:1.25', ['sh'], true, 'app']],
    );
  });

  it('creates PersistentVolumes whose nfs and hostPath sources came in PersistentVolumeSource', async () => {
    const pv = (name: string, source: ProtoWriter): Buffer => {
      const spec = pb()
        .message(1, entry('storage', pb().string(1, '5Gi')))
        .message(2, source)
        .string(3, 'ReadWriteOnce')
        .string(5, 'Retain')
        .string(6, '');
      return kubeProtobuf(
        { apiVersion: 'v1', kind: 'PersistentVolume' },
        pb().message(1, objectMeta(name)).message(2, spec),
      );
    };
    const nfs = await request({
      method: 'POST',
      url: '/api/v1/persistentvolumes',
      headers,
      payload: pv(
        'pv-nfs',
        pb().message(5, pb().string(1, 'nfs.example').string(2, '/exports').bool(3, false)),
      ),
    });
    assert.equal(nfs.statusCode, 201, nfs.body);
    assert.deepEqual(nfs.json<{ spec: { nfs: unknown } }>().spec.nfs, {
      server: 'nfs.example',
      path: '/exports',
    });
    const host = await request({
      method: 'POST',
      url: '/api/v1/persistentvolumes',
      headers,
      payload: pv('pv-host', pb().message(3, pb().string(1, '/mnt/data'))),
    });
    assert.equal(host.statusCode, 201, host.body);
    assert.deepEqual(host.json<{ spec: { hostPath: unknown } }>().spec.hostPath, {
      path: '/mnt/data',
      type: '',
    });
  });

  it('a legacy volume source (gitRepo, VolumeSource field 5) is held and stored', async () => {
    const spec = pb()
      .message(
        1,
        pb()
          .string(1, 'git')
          .message(2, pb().message(5, pb().string(1, 'https://example.com/repo'))),
      )
      .message(2, container('app'));
    const body = kubeProtobuf(
      { apiVersion: 'v1', kind: 'Pod' },
      pb().message(1, objectMeta('git', 'default')).message(2, spec),
    );
    const res = await request({ method: 'POST', url: pods, headers, payload: body });
    assert.equal(res.statusCode, 201, res.body);
    const stored = res.json<{ spec: { volumes: unknown[] } }>().spec.volumes[0];
    assert.deepEqual(stored, { name: 'git', gitRepo: { repository: 'https://example.com/repo' } });
  });
});

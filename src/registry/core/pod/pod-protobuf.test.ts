// Pods and PersistentVolumes sent as protobuf (what client-go and kubectl send for built-in kinds),
// with the Go embedded structs kube carries as their own messages: Volume's VolumeSource (2),
// PersistentVolumeSpec's PersistentVolumeSource (2), Probe's ProbeHandler (1), EphemeralContainer's
// EphemeralContainerCommon (1) and the LocalObjectReference (1) of the key selectors and configMap
// sources. Decoded as the API decodes a body, then stored through the real pod storage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import { coreV1 } from '../../../api/schema/api-module.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/index.js';
import { entry, objectMeta, pb, type ProtoWriter } from '../../../machinery/protobuf/testing/proto-writer.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newPodREST, type PodStorage } from './storage.js';

const decoder = new ProtobufDecoder(builtinScheme());
const decode = (definition: string, raw: ProtoWriter): Record<string, unknown> =>
  decoder.toJSON(coreV1(definition), raw.finish());

// intstr.IntOrString {type = 1, intVal = 2, strVal = 3}, every field written as gogo does.
const intPort = (n: number): ProtoWriter => pb().varint(1, 0).varint(2, n).string(3, '');
const namedPort = (s: string): ProtoWriter => pb().varint(1, 1).varint(2, 0).string(3, s);
const localRef = (name: string): ProtoWriter => pb().string(1, name);
const keyToPath = (key: string, path: string): ProtoWriter => pb().string(1, key).string(2, path);

const volumes = [
  // configMap (19): LocalObjectReference at 1, items 2, defaultMode 3.
  pb()
    .string(1, 'cfg')
    .message(
      2,
      pb().message(
        19,
        pb().message(1, localRef('app-config')).message(2, keyToPath('a', 'a.txt')).varint(3, 420),
      ),
    ),
  // secret (6).
  pb()
    .string(1, 'sec')
    .message(2, pb().message(6, pb().string(1, 'app-secret').varint(3, 256))),
  // emptyDir (2), with the non-pointer medium gogo always writes.
  pb()
    .string(1, 'scratch')
    .message(2, pb().message(2, pb().string(1, ''))),
  // hostPath (1).
  pb()
    .string(1, 'logs')
    .message(2, pb().message(1, pb().string(1, '/var/log').string(2, 'Directory'))),
  // persistentVolumeClaim (10).
  pb()
    .string(1, 'data')
    .message(2, pb().message(10, pb().string(1, 'claim1').bool(2, true))),
  // projected (26): serviceAccountToken (4), configMap (3), downwardAPI (2).
  pb()
    .string(1, 'kube-api-access-abcde')
    .message(
      2,
      pb().message(
        26,
        pb()
          .message(1, pb().message(4, pb().string(1, '').varint(2, 3607).string(3, 'token')))
          .message(
            1,
            pb().message(
              3,
              pb().message(1, localRef('kube-root-ca.crt')).message(2, keyToPath('ca.crt', 'ca.crt')),
            ),
          )
          .message(
            1,
            pb().message(
              2,
              pb().message(
                1,
                pb().string(1, 'namespace').message(2, pb().string(1, 'v1').string(2, 'metadata.namespace')),
              ),
            ),
          )
          .varint(2, 420),
      ),
    ),
];

const env = [
  pb().string(1, 'PLAIN').string(2, 'x'),
  // configMapKeyRef (3) and secretKeyRef (4): LocalObjectReference at 1, key 2, optional 3.
  pb()
    .string(1, 'FROM_CM')
    .string(2, '')
    .message(3, pb().message(3, pb().message(1, localRef('cm1')).string(2, 'k1'))),
  pb()
    .string(1, 'FROM_SECRET')
    .string(2, '')
    .message(3, pb().message(4, pb().message(1, localRef('s1')).string(2, 'k2').bool(3, true))),
  // fieldRef (1) and resourceFieldRef (2) with a Quantity divisor.
  pb()
    .string(1, 'POD_NAME')
    .string(2, '')
    .message(3, pb().message(1, pb().string(1, 'v1').string(2, 'metadata.name'))),
  pb()
    .string(1, 'CPU')
    .string(2, '')
    .message(
      3,
      pb().message(2, pb().string(1, 'app').string(2, 'limits.cpu').message(3, pb().string(1, '1m'))),
    ),
];

// Probe: ProbeHandler at 1, then its own fields.
const probe = (handler: ProtoWriter, period: number): ProtoWriter =>
  pb().message(1, handler).varint(2, 0).varint(3, 1).varint(4, period).varint(5, 1).varint(6, 3);

const container = pb()
  .string(1, 'app')
  .string(2, 'nginx:1.25')
  .string(5, '')
  .message(6, pb().string(1, 'http').varint(3, 80).string(4, 'TCP'))
  .message(6, pb().string(1, 'grpc').varint(3, 9090).string(4, 'TCP'));
for (const e of env) container.message(7, e);
container
  .message(8, pb())
  .message(9, pb().string(1, 'cfg').bool(2, true).string(3, '/etc/app').string(4, ''))
  .message(
    10,
    probe(
      pb().message(
        2,
        pb()
          .string(1, '/healthz')
          .message(2, namedPort('http'))
          .string(3, '')
          .string(4, 'HTTP')
          .message(5, pb().string(1, 'X-Probe').string(2, 'yes')),
      ),
      10,
    ),
  )
  .message(11, probe(pb().message(3, pb().message(1, intPort(80)).string(2, '')), 5))
  .message(22, probe(pb().message(4, pb().varint(1, 9090).string(2, 'ready')), 2))
  // Lifecycle: postStart 1 (exec), preStop 2 (sleep 4); LifecycleHandler is not embedded.
  .message(
    12,
    pb()
      .message(1, pb().message(1, pb().string(1, 'sh').string(1, '-c').string(1, 'echo hi')))
      .message(2, pb().message(4, pb().varint(1, 5))),
  )
  .string(13, '/dev/termination-log')
  .string(14, 'IfNotPresent')
  .bool(16, false)
  .bool(17, false)
  .bool(18, false)
  .string(20, 'File');

const initContainer = pb()
  .string(1, 'init')
  .string(2, 'busybox')
  .message(11, probe(pb().message(1, pb().string(1, 'true')), 1));

function podSpec(): ProtoWriter {
  const spec = pb();
  for (const v of volumes) spec.message(1, v);
  return spec.message(2, container).string(3, 'Always').string(6, 'ClusterFirst').message(20, initContainer);
}

describe('pods from protobuf with embedded structs', () => {
  let rest: MemoryRESTOptions;
  let pods: PodStorage;
  const ctx = testContext('default');

  before(async () => {
    rest = await memoryRESTOptions();
    pods = await newPodREST({ restOptionsGetter: rest.getter });
  });
  after(() => rest.close());

  it('decodes volume sources, probes, lifecycle hooks and env sources as JSON clients send them', () => {
    const pod = decode('Pod', pb().message(1, objectMeta('web', 'default')).message(2, podSpec())) as Pod;
    const spec = pod.spec;
    assert.ok(spec !== undefined);
    assert.deepEqual(spec.volumes, [
      {
        name: 'cfg',
        configMap: { name: 'app-config', items: [{ key: 'a', path: 'a.txt' }], defaultMode: 420 },
      },
      { name: 'sec', secret: { secretName: 'app-secret', defaultMode: 256 } },
      { name: 'scratch', emptyDir: {} },
      { name: 'logs', hostPath: { path: '/var/log', type: 'Directory' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'claim1', readOnly: true } },
      {
        name: 'kube-api-access-abcde',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [
                  { path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                ],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ]);
    const app = spec.containers[0];
    assert.ok(app !== undefined);
    assert.deepEqual(app.env, [
      { name: 'PLAIN', value: 'x' },
      { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'cm1', key: 'k1' } } },
      { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 's1', key: 'k2', optional: true } } },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
      {
        name: 'CPU',
        valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } },
      },
    ]);
    assert.deepEqual(app.livenessProbe, {
      httpGet: {
        path: '/healthz',
        port: 'http',
        scheme: 'HTTP',
        httpHeaders: [{ name: 'X-Probe', value: 'yes' }],
      },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.deepEqual(app.readinessProbe?.tcpSocket, { port: 80 });
    assert.deepEqual(app.startupProbe?.grpc, { port: 9090, service: 'ready' });
    assert.deepEqual(app.lifecycle, {
      postStart: { exec: { command: ['sh', '-c', 'echo hi'] } },
      preStop: { sleep: { seconds: 5 } },
    });
    assert.deepEqual(spec.initContainers?.[0]?.readinessProbe?.exec, { command: ['true'] });
  });

  it('stores what it decoded: the pod storage keeps every embedded field', async () => {
    const decoded = decode(
      'Pod',
      pb().message(1, objectMeta('stored', 'default')).message(2, podSpec()),
    ) as Pod;
    // kube refuses probes on an init container that is no sidecar (restartPolicy Always).
    const init = decoded.spec?.initContainers?.[0];
    if (init !== undefined) delete init.readinessProbe;
    // Its projected token needs a service account, which the ServiceAccount admission plugin names.
    if (decoded.spec !== undefined) decoded.spec.serviceAccountName = 'default';
    const created = await pods.pods.create(ctx, decoded, { options: {} });
    const got = await pods.pods.get(ctx, 'stored', {});
    assert.deepEqual(got.spec?.volumes, decoded.spec?.volumes);
    assert.deepEqual(got.spec?.containers[0]?.lifecycle, decoded.spec?.containers[0]?.lifecycle);
    assert.deepEqual(got.spec?.containers[0]?.startupProbe?.grpc, { port: 9090, service: 'ready' });
    assert.equal(created.metadata?.name, 'stored');
  });

  it('decodes ephemeral containers: EphemeralContainerCommon at 1, targetContainerName at 2', () => {
    const common = pb()
      .string(1, 'debugger')
      .string(2, 'busybox:1.36')
      .string(3, 'sh')
      .bool(16, true)
      .bool(18, true)
      .string(20, 'File');
    const spec = podSpec().message(34, pb().message(1, common).string(2, 'app'));
    const pod = decode('Pod', pb().message(1, objectMeta('dbg', 'default')).message(2, spec)) as Pod;
    assert.deepEqual(pod.spec?.ephemeralContainers, [
      {
        name: 'debugger',
        image: 'busybox:1.36',
        command: ['sh'],
        stdin: true,
        tty: true,
        terminationMessagePolicy: 'File',
        targetContainerName: 'app',
      },
    ]);
  });

  it('an empty embedded message adds nothing: gogo writes VolumeSource even when no source is set', () => {
    const pod = decode('Volume', pb().string(1, 'bare').message(2, pb()));
    assert.deepEqual(pod, { name: 'bare' });
  });

  it('a pod volume carries every source of k8s.io/api 1.33 (nfs 7, cinder 13), and skips unknown fields', () => {
    const nfs = pb()
      .string(1, 'n')
      .message(2, pb().message(7, pb().string(1, 'nfs.example').string(2, '/')));
    assert.deepEqual(decode('Volume', nfs), { name: 'n', nfs: { server: 'nfs.example', path: '/' } });
    const cinder = pb()
      .string(1, 'c')
      .message(2, pb().message(13, pb().string(1, 'vol-1').string(2, 'ext4')));
    assert.deepEqual(decode('Volume', cinder), { name: 'c', cinder: { volumeID: 'vol-1', fsType: 'ext4' } });
    // VolumeSource has no field 99: skipped, as gogo's generated Unmarshal skips unknown fields.
    const unknown = pb()
      .string(1, 'x')
      .message(2, pb().message(99, pb().string(1, 'x')));
    assert.deepEqual(decode('Volume', unknown), { name: 'x' });
  });

  it('decodes a PersistentVolume source: PersistentVolumeSource at 2 (nfs 5, hostPath 3)', () => {
    const nfsSpec = pb()
      .message(1, entry('storage', pb().string(1, '5Gi')))
      .message(2, pb().message(5, pb().string(1, 'nfs.example').string(2, '/exports').bool(3, true)))
      .string(3, 'ReadWriteMany')
      .string(5, 'Retain')
      .string(6, '');
    const nfs = decode('PersistentVolume', pb().message(1, objectMeta('pv-nfs')).message(2, nfsSpec));
    assert.deepEqual(nfs['spec'], {
      capacity: { storage: '5Gi' },
      nfs: { server: 'nfs.example', path: '/exports', readOnly: true },
      accessModes: ['ReadWriteMany'],
      persistentVolumeReclaimPolicy: 'Retain',
    });
    const hostSpec = pb()
      .message(1, entry('storage', pb().string(1, '1Gi')))
      .message(2, pb().message(3, pb().string(1, '/mnt/data')))
      .string(3, 'ReadWriteOnce');
    const host = decode('PersistentVolume', pb().message(1, objectMeta('pv-host')).message(2, hostSpec));
    assert.deepEqual((host['spec'] as Record<string, unknown>)['hostPath'], { path: '/mnt/data' });
  });
});

describe('pods from protobuf: the fields k8s.io/api 1.33 added', () => {
  it('decodes PodStatus 13 (ephemeral container statuses), 14 (resize), 15 (claim statuses), 17 (observedGeneration)', () => {
    const debugger_ = pb()
      .string(1, 'debugger-x1')
      .message(2, pb().message(2, pb().message(1, pb().varint(1, 1_700_000_000))))
      .bool(4, true)
      .varint(5, 0)
      .string(6, 'busybox:1.36')
      .string(7, 'docker.io/library/busybox@sha256:00')
      .string(15, 'SIGTERM');
    const status = pb()
      .string(1, 'Running')
      .message(13, debugger_)
      .string(14, 'InProgress')
      .message(15, pb().string(1, 'gpu').string(2, 'web-gpu-1'))
      .varint(17, 3)
      .message(2, pb().string(1, 'Ready').string(2, 'True').varint(7, 3));
    const out = decode('PodStatus', status);
    assert.deepEqual(out, {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True', observedGeneration: 3 }],
      ephemeralContainerStatuses: [
        {
          name: 'debugger-x1',
          state: { running: { startedAt: '2023-11-14T22:13:20Z' } },
          ready: true,
          restartCount: 0,
          image: 'busybox:1.36',
          imageID: 'docker.io/library/busybox@sha256:00',
          stopSignal: 'SIGTERM',
        },
      ],
      resize: 'InProgress',
      resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'web-gpu-1' }],
      observedGeneration: 3,
    });
  });

  it('decodes PodSpec affinity (18), resourceClaims (39) and pod-level resources (40)', () => {
    const term = pb().message(
      1,
      pb().message(1, pb().string(1, 'kubernetes.io/os').string(2, 'In').string(3, 'linux')),
    );
    const spec = pb()
      .message(2, pb().string(1, 'app').string(2, 'nginx:1.25'))
      .message(18, pb().message(1, pb().message(1, term)))
      .message(39, pb().string(1, 'gpu').string(4, 'gpu-template'))
      .message(40, pb().message(1, entry('cpu', pb().string(1, '2'))));
    const out = decode('PodSpec', spec);
    assert.deepEqual(out['affinity'], {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
          ],
        },
      },
    });
    assert.deepEqual(out['resourceClaims'], [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }]);
    assert.deepEqual(out['resources'], { limits: { cpu: '2' } });
  });

  it('decodes a PersistentVolume source added in this sweep: gcePersistentDisk (1)', () => {
    const spec = pb()
      .message(1, entry('storage', pb().string(1, '10Gi')))
      .message(2, pb().message(1, pb().string(1, 'disk-1').string(2, 'ext4').varint(3, 0).bool(4, false)))
      .string(3, 'ReadWriteOnce');
    const pv = decode('PersistentVolume', pb().message(1, objectMeta('pv-gce')).message(2, spec));
    assert.deepEqual((pv['spec'] as Record<string, unknown>)['gcePersistentDisk'], {
      pdName: 'disk-1',
      fsType: 'ext4',
    });
  });
});

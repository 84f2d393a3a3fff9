import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { Node } from '../../../api/core/v1/node.js';
import { coreV1 } from '../../../api/schema/api-module.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/index.js';
import { objectMeta, pb } from '../../../machinery/protobuf/testing/proto-writer.js';
import type { UpdateRequest } from '../../rest/capabilities.js';
import { rejectsWithStatus } from '../../generic/testing/assert-status.js';
import { memoryRESTOptions, type MemoryRESTOptions } from '../../generic/testing/memory-rest-options.js';
import { testContext } from '../../generic/testing/widgets.js';
import { newNodeREST, type NodeStorage } from './storage.js';
import { nodeStrategy } from './strategy.js';
import { validateNode } from './validation.js';

const node = (name: string, more: Partial<Node> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  ...more,
});
const put = (obj: Node): UpdateRequest => ({
  objInfo: { preconditions: () => undefined, updatedObject: () => Promise.resolve(structuredClone(obj)) },
  options: {},
});
const ready: Node['status'] = {
  conditions: [{ type: 'Ready', status: 'True' }],
  addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
  nodeInfo: {
    machineID: 'm',
    systemUUID: 'u',
    bootID: 'b',
    kernelVersion: '6.1.0',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    containerRuntimeVersion: 'containerd://1.7.0',
    kubeletVersion: 'v1.33.0',
    kubeProxyVersion: '',
    operatingSystem: 'linux',
    architecture: 'amd64',
  },
};

describe('nodes', () => {
  let env: MemoryRESTOptions;
  let s: NodeStorage;
  const ctx = testContext('');
  before(async () => {
    env = await memoryRESTOptions({
      resourcePrefix: (r) => (r.resource === 'nodes' ? 'minions' : r.resource),
    });
    s = await newNodeREST({ restOptionsGetter: env.getter });
  });
  after(() => env.close());

  it('is cluster-scoped with short name no, keeps status given on create, and prints a row', async () => {
    const created = await s.nodes.create(
      ctx,
      node('worker-1', {
        metadata: { name: 'worker-1', labels: { 'node-role.kubernetes.io/worker': '' } },
        status: ready,
      }),
      { options: {} },
    );
    assert.equal(created.metadata?.namespace, undefined);
    assert.deepEqual(created.status?.conditions, ready.conditions);
    assert.deepEqual(s.nodes.shortNames(), ['no']);
    assert.equal(s.nodes.namespaceScoped(), false);
    assert.notEqual((await env.backend.get('/registry/minions/worker-1')).kv, null);
    const table = s.nodes.convertToTable(ctx, created, {});
    assert.deepEqual(
      table.columnDefinitions.map((c) => `${c.name}:${c.priority}`),
      [
        'Name:0',
        'Status:0',
        'Roles:0',
        'Age:0',
        'Version:0',
        'Internal-IP:1',
        'External-IP:1',
        'OS-Image:1',
        'Kernel-Version:1',
        'Container-Runtime:1',
      ],
    );
    const cells = table.rows[0]?.cells ?? [];
    assert.deepEqual([cells[0], cells[1], cells[2], cells[4]], ['worker-1', 'Ready', 'worker', 'v1.33.0']);
    assert.deepEqual(cells.slice(5), [
      '10.0.0.5',
      '<none>',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0',
      'containerd://1.7.0',
    ]);
  });

  it('cordon: spec.unschedulable shows SchedulingDisabled, is selectable, and the update keeps status', async () => {
    const current = await s.nodes.get(ctx, 'worker-1', {});
    const { object } = await s.nodes.update(
      ctx,
      'worker-1',
      put({ ...current, spec: { ...current.spec, unschedulable: true }, status: { conditions: [] } }),
    );
    assert.equal(object.spec?.unschedulable, true);
    assert.deepEqual(object.status?.conditions, ready.conditions);
    assert.equal(s.nodes.convertToTable(ctx, object, {}).rows[0]?.cells[1], 'Ready,SchedulingDisabled');
    await s.nodes.create(ctx, node('bare'), { options: {} });
    const names = async (fieldSelector: string): Promise<string[]> =>
      (await s.nodes.list(ctx, { fieldSelector })).items.map((n) => n.metadata?.name ?? '');
    assert.deepEqual(await names('spec.unschedulable=true'), ['worker-1']);
    assert.deepEqual(await names('spec.unschedulable=false'), ['bare']);
    assert.deepEqual(await names('metadata.name=bare'), ['bare']);
    const bare = s.nodes.convertToTable(ctx, await s.nodes.get(ctx, 'bare', {}), {}).rows[0]?.cells ?? [];
    assert.deepEqual([bare[1], bare[2], bare[5], bare[7]], ['Unknown', '<none>', '<none>', '<unknown>']);
    await rejectsWithStatus(s.nodes.list(ctx, { fieldSelector: 'spec.podCIDR=x' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.podCIDR',
    });
  });

  it('nodes/status takes the status and keeps the spec', async () => {
    const current = await s.nodes.get(ctx, 'worker-1', {});
    const notReady = { ...current.status, conditions: [{ type: 'Ready', status: 'False' }] };
    const { object } = await s.status.update(
      ctx,
      'worker-1',
      put({ ...current, spec: {}, status: notReady }),
    );
    assert.equal(object.spec?.unschedulable, true);
    assert.equal(s.nodes.convertToTable(ctx, object, {}).rows[0]?.cells[1], 'NotReady,SchedulingDisabled');
  });

  it('SetDefaults_NodeStatus: allocatable is the capacity when the node reports none', async () => {
    const capacity = { cpu: '4', memory: '8Gi', pods: '110' };
    const created = await s.nodes.create(ctx, node('alloc', { status: { capacity } }), { options: {} });
    assert.deepEqual(created.status?.allocatable, capacity);
    const own = { cpu: '3500m', memory: '7Gi', pods: '110' };
    const { object } = await s.status.update(
      ctx,
      'alloc',
      put({ ...created, status: { capacity, allocatable: own } }),
    );
    assert.deepEqual(object.status?.allocatable, own);
  });

  it('validates taints as kube does: effect, key and unique key+effect', async () => {
    await rejectsWithStatus(
      s.nodes.create(ctx, node('t1', { spec: { taints: [{ key: 'k', effect: 'Banish' }] } }), {
        options: {},
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Node "t1" is invalid: metadata.taints[0].effect: Unsupported value: "Banish": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      },
    );
    await rejectsWithStatus(
      s.nodes.create(ctx, node('t2', { spec: { taints: [{ key: 'k', effect: '' }] } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message: 'Node "t2" is invalid: metadata.taints[0].effect: Required value',
      },
    );
    const dup = [
      { key: 'k', value: 'a', effect: 'NoSchedule' },
      { key: 'k', value: 'b', effect: 'NoSchedule' },
      { key: 'k', effect: 'NoExecute' },
    ];
    await rejectsWithStatus(s.nodes.create(ctx, node('t3', { spec: { taints: dup } }), { options: {} }), {
      code: 422,
      reason: 'Invalid',
      message:
        'Node "t3" is invalid: metadata.taints[1]: Duplicate value: {"key":"k","value":"b","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    });
    const status = await rejectsWithStatus(
      s.nodes.create(ctx, node('t4', { spec: { taints: [{ key: 'bad key!', effect: 'NoSchedule' }] } }), {
        options: {},
      }),
      { code: 422, reason: 'Invalid' },
    );
    assert.match(
      status.message ?? '',
      /^Node "t4" is invalid: metadata\.taints\[0\]\.key: Invalid value: "bad key!": name part must consist of/,
    );
    const ok = await s.nodes.create(
      ctx,
      node('t5', { spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } }),
      {
        options: {},
      },
    );
    assert.equal(ok.spec?.taints?.[0]?.effect, 'NoSchedule');
  });

  it('sets podCIDRs once, mirrored into podCIDR, and providerID once', async () => {
    const created = await s.nodes.create(ctx, node('cidr', { spec: { podCIDR: '10.244.1.0/24' } }), {
      options: {},
    });
    assert.deepEqual(created.spec?.podCIDRs, ['10.244.1.0/24']);
    const change = { ...created, spec: { podCIDRs: ['10.244.2.0/24'] } };
    await rejectsWithStatus(s.nodes.update(ctx, 'cidr', put(change)), {
      code: 422,
      reason: 'Invalid',
      message:
        'Node "cidr" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
    });
    const late = await s.nodes.get(ctx, 'bare', {});
    const { object } = await s.nodes.update(
      ctx,
      'bare',
      put({ ...late, spec: { podCIDRs: ['10.1.0.0/16', 'fd00::/64'], providerID: 'p1' } }),
    );
    assert.equal(object.spec?.podCIDR, '10.1.0.0/16');
    await rejectsWithStatus(
      s.nodes.update(ctx, 'bare', put({ ...object, spec: { ...object.spec, providerID: 'p2' } })),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Node "bare" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
      },
    );
    await rejectsWithStatus(
      s.nodes.create(ctx, node('bad-cidr', { spec: { podCIDRs: ['10.0.0.0/8', '10.1.0.0/16'] } }), {
        options: {},
      }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Node "bad-cidr" is invalid: spec.podCIDRs: Invalid value: ["10.0.0.0/8","10.1.0.0/16"]: may specify no more than one CIDR for each IP family',
      },
    );
    await rejectsWithStatus(
      s.nodes.create(ctx, node('bad-cidr', { spec: { podCIDRs: ['10.0.0.0/33'] } }), { options: {} }),
      {
        code: 422,
        reason: 'Invalid',
        message:
          'Node "bad-cidr" is invalid: spec.podCIDRs[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      },
    );
  });

  it('decodes a protobuf Node with the field numbers of k8s.io/api', () => {
    const taint = pb().string(1, 'dedicated').string(2, 'gpu').string(3, 'NoSchedule');
    const spec = pb()
      .string(1, '10.1.0.0/24')
      .string(2, '')
      .string(3, '')
      .bool(4, true)
      .message(5, taint)
      .string(7, '10.1.0.0/24');
    const info = pb().string(1, 'm').string(7, 'v1.33.0').message(11, pb().varint(1, 1024));
    const status = pb()
      .string(3, 'Running')
      .message(7, info)
      .string(9, 'vol-1')
      .message(10, pb().string(1, 'vol-1').string(2, '/dev/xvdb'));
    const raw = pb().message(1, objectMeta('pb-node')).message(2, spec).message(3, status).finish();
    const json = new ProtobufDecoder(builtinScheme()).toJSON(coreV1('Node'), raw) as unknown as Node;
    assert.deepEqual(json.spec, {
      podCIDR: '10.1.0.0/24',
      unschedulable: true,
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      podCIDRs: ['10.1.0.0/24'],
    });
    const st = json.status ?? {};
    assert.equal(st.phase, 'Running');
    assert.equal(st.nodeInfo?.kubeletVersion, 'v1.33.0');
    assert.deepEqual(st.nodeInfo.swap, { capacity: 1024 });
    assert.deepEqual(st.volumesInUse, ['vol-1']);
    assert.deepEqual(st.volumesAttached, [{ name: 'vol-1', devicePath: '/dev/xvdb' }]);
  });

  it('reads pod CIDRs as netutils.ParseCIDRSloppy does, and says which one it could not parse', () => {
    const errs = (podCIDRs: string[]) =>
      validateNode(node('n', { spec: { podCIDRs } })).map((e) => e.error());
    assert.deepEqual(errs(['010.0.0.0/08', 'fd00::/64']), []);
    assert.deepEqual(errs(['10.0.0.0/8', 'fd00::%eth0/64']), [
      'spec.podCIDRs[1]: Invalid value: "fd00::%eth0/64": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      'spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[1]: <nil> (invalid CIDR address: fd00::%eth0/64)',
      'spec.podCIDRs: Invalid value: ["10.0.0.0/8","fd00::%eth0/64"]: may specify no more than one CIDR for each IP family',
    ]);
  });

  it("warns as kube 1.33's nodeWarnings does: configSource, externalID, non-standard pod CIDRs", () => {
    const n = node('n', {
      spec: { configSource: {}, externalID: 'x', podCIDRs: ['10.0.0.1/8', 'fd00:0::/64'] },
    });
    const want = [
      'spec.configSource: the feature is removed',
      'spec.externalID: this field is deprecated, and is unused by Kubernetes',
      'spec.podCIDRs[0]: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.podCIDRs[1]: IPv6 CIDR value "fd00:0::/64" should be in RFC 5952 canonical format ("fd00::/64")',
    ];
    assert.deepEqual(nodeStrategy.warningsOnCreate(ctx, n), want);
    assert.deepEqual(nodeStrategy.warningsOnUpdate(ctx, n), want);
  });
});

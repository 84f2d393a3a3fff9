// `kubectl get nodes` columns: NAME STATUS ROLES AGE VERSION, wide: INTERNAL-IP EXTERNAL-IP OS-IMAGE
// KERNEL-VERSION CONTAINER-RUNTIME (printNode in pkg/printers/internalversion/printers.go).
import type { Node } from '../../../api/core/v1/node.js';
import type { TableColumnDefinition } from '../../../api/table.js';
import { translateTimestampSince } from '../../generic/human-duration.js';
import { ageColumn, nameColumn, tableConvertorFor } from '../../generic/table-convertor.js';
import type { TableConvertor } from '../../rest/capabilities.js';

const labelNodeRolePrefix = 'node-role.kubernetes.io/';
const nodeLabelRole = 'kubernetes.io/role';
const addressesDoc =
  "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const column = (name: string, description: string, priority = 0): TableColumnDefinition => ({
  name,
  type: 'string',
  format: '',
  description,
  priority,
});

/** The STATUS cell: Ready, NotReady or Unknown from the Ready condition, then SchedulingDisabled. */
export function nodeStatus(node: Node): string {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (node.spec?.unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** findNodeRoles: node-role.kubernetes.io/<role> label keys and the kubernetes.io/role value, sorted. */
export function nodeRoles(node: Node): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(labelNodeRolePrefix)) {
      const role = k.slice(labelNodeRolePrefix.length);
      if (role !== '') roles.add(role);
    } else if (k === nodeLabelRole && v !== '') roles.add(v);
  }
  const list = [...roles].sort();
  return list.length > 0 ? list.join(',') : '<none>';
}

function address(node: Node, type: string): string {
  return (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
}

const orUnknown = (s: string | undefined): string => (s === undefined || s === '' ? '<unknown>' : s);

export const nodeTableConvertor: TableConvertor = tableConvertorFor<Node>({
  columns: [
    nameColumn,
    column('Status', 'The status of the node'),
    column('Roles', 'The roles of the node'),
    ageColumn,
    column('Version', 'Kubelet Version reported by the node.'),
    column('Internal-IP', addressesDoc, 1),
    column('External-IP', addressesDoc, 1),
    column(
      'OS-Image',
      'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
      1,
    ),
    column(
      'Kernel-Version',
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      1,
    ),
    column(
      'Container-Runtime',
      'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
      1,
    ),
  ],
  cells: (node, now) => {
    const info = node.status?.nodeInfo;
    return [
      node.metadata?.name ?? '',
      nodeStatus(node),
      nodeRoles(node),
      translateTimestampSince(node.metadata?.creationTimestamp, now),
      info?.kubeletVersion ?? '',
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      orUnknown(info?.osImage),
      orUnknown(info?.kernelVersion),
      orUnknown(info?.containerRuntimeVersion),
    ];
  },
});

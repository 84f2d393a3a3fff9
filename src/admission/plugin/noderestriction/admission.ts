// NodeRestriction (plugin/pkg/admission/noderestriction/admission.go), off unless
// --enable-admission-plugins names it: what a kubelet (user system:node:<name>, group system:nodes)
// may write is narrowed to its own Node, Lease and CSINode, the pods bound to it (mirror pods only
// for create), their status, evictions and tokens, PVC status, and CSRs for its own name. The Node
// authorizer allows these writes to every node and leaves the narrowing here. Other users pass
// after one string compare.
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type AdmissionResult, type MutationInterface } from '../../interfaces.js';
import { admitCSR } from './csr.js';
import { nodeIdentity } from './node-identity.js';
import { admitNode } from './nodes.js';
import { admitCSINode, admitLease, admitPVCStatus } from './objects.js';
import { admitPod, admitPodEviction, admitPodStatus, type NodePodRequest } from './pods.js';
import type { NodeRestrictionReaders } from './readers.js';
import { admitServiceAccount } from './service-account.js';

export const nodeRestrictionPluginName = 'NodeRestriction';

export class NodeRestriction implements MutationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE', 'DELETE');
  readonly resources: ReadonlySet<string> = new Set([
    'pods',
    'nodes',
    'persistentvolumeclaims',
    'serviceaccounts',
    'leases.coordination.k8s.io',
    'csinodes.storage.k8s.io',
    'certificatesigningrequests.certificates.k8s.io',
  ]);
  readonly #readers: NodeRestrictionReaders;

  constructor(readers: NodeRestrictionReaders) {
    this.#readers = readers;
  }

  admit(ctx: RequestContext, a: Attributes): AdmissionResult {
    const nodeName = nodeIdentity(a.userInfo);
    if (nodeName === undefined) return undefined;
    if (nodeName === '')
      throw newAdmissionForbidden(a, `could not determine node from user "${a.userInfo.name}"`);
    const c: NodePodRequest = { ctx, a, nodeName, readers: this.#readers };
    const key = `${a.resource.group}/${a.resource.resource}`;
    switch (key) {
      case '/pods':
        return admitPodRequest(c);
      case '/nodes':
        admitNode(a, nodeName);
        return undefined;
      case '/persistentvolumeclaims':
        if (a.subresource !== 'status') throw newAdmissionForbidden(a, 'may only update PVC status');
        admitPVCStatus(a, nodeName);
        return undefined;
      case '/serviceaccounts':
        return admitServiceAccount(c);
      case 'coordination.k8s.io/leases':
        admitLease(a, nodeName);
        return undefined;
      case 'storage.k8s.io/csinodes':
        admitCSINode(a, nodeName);
        return undefined;
      case 'certificates.k8s.io/certificatesigningrequests':
        admitCSR(a, nodeName);
        return undefined;
      default:
        return undefined;
    }
  }
}

function admitPodRequest(c: NodePodRequest): AdmissionResult {
  switch (c.a.subresource) {
    case '':
      return admitPod(c);
    case 'status':
      admitPodStatus(c);
      return undefined;
    case 'eviction':
      return admitPodEviction(c);
    default:
      throw newAdmissionForbidden(
        c.a,
        `unexpected pod subresource "${c.a.subresource}", only 'status' and 'eviction' are allowed`,
      );
  }
}

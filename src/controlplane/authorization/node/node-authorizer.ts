// The Node authorizer (plugin/pkg/auth/authorizer/node/node_authorizer.go), --authorization-mode
// Node: a kubelet (user system:node:<name> in group system:nodes) may read the secrets, config maps,
// claims, volumes and service account tokens of the pods bound to it, as the graph relates them, its
// own Node, Lease and CSINode, and what the system:node rules grant everyone else of its kind. Any
// other user gets NoOpinion after one string compare; decisions read the graph and nothing else.
import type { PolicyRule } from '../../../api/rbac/v1/rbac.js';
import { nodeIdentity } from '../../../admission/plugin/noderestriction/node-identity.js';
import { ruleAllows } from '../../../registry/rbac/authorizer.js';
import type {
  AuthorizationAttributes,
  AuthorizationResult,
  Authorizer,
  UserRules,
} from '../../../registry/rest/authorizer.js';
import type { UserInfo } from '../../../registry/rest/context.js';
import {
  allow,
  authorizeCSINode,
  authorizeLease,
  authorizeNode,
  noOpinion,
  selectsExactly,
} from './decisions.js';
import type { Graph, VertexType } from './graph.js';

export interface NodeAuthorizerOptions {
  readonly graph: Graph;
  /** bootstrappolicy.NodeRules(). */
  readonly rules: readonly PolicyRule[];
  /** KubeletServiceAccountTokenForCredentialProviders (off in 1.33): nodes may get their pods' accounts. */
  readonly serviceAccountGet?: boolean;
}

/** group/resource → how it is decided; resources not listed fall to the node rules. */
type Route = (node: string, attrs: AuthorizationAttributes) => AuthorizationResult;

export class NodeAuthorizer implements Authorizer {
  readonly #graph: Graph;
  readonly #rules: readonly PolicyRule[];
  readonly #routes: ReadonlyMap<string, Route>;
  readonly #serviceAccountGet: boolean;

  constructor(opts: NodeAuthorizerOptions) {
    this.#graph = opts.graph;
    this.#rules = opts.rules;
    this.#serviceAccountGet = opts.serviceAccountGet ?? false;
    this.#routes = new Map<string, Route>([
      ['/secrets', (n, a) => this.#readNamespaced(n, 'secret', a)],
      ['/configmaps', (n, a) => this.#readNamespaced(n, 'configmap', a)],
      [
        '/persistentvolumeclaims',
        (n, a) => (a.subresource === 'status' ? this.#statusUpdate(n, 'pvc', a) : this.#get(n, 'pvc', a)),
      ],
      ['/persistentvolumes', (n, a) => this.#get(n, 'pv', a)],
      ['resource.k8s.io/resourceclaims', (n, a) => this.#get(n, 'resourceclaim', a)],
      ['storage.k8s.io/volumeattachments', (n, a) => this.#get(n, 'volumeattachment', a)],
      ['/serviceaccounts', (n, a) => this.#serviceAccount(n, a)],
      ['coordination.k8s.io/leases', authorizeLease],
      ['storage.k8s.io/csinodes', authorizeCSINode],
      ['resource.k8s.io/resourceslices', (n, a) => this.#resourceSlice(n, a)],
      ['/nodes', authorizeNode],
      ['/pods', (n, a) => this.#pod(n, a)],
    ]);
  }

  authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    const nodeName = nodeIdentity(attrs.user);
    if (nodeName === undefined) return Promise.resolve(noOpinion(''));
    if (nodeName === '') return Promise.resolve(noOpinion(`unknown node for user "${attrs.user.name}"`));
    if (attrs.resourceRequest) {
      const route = this.#routes.get(`${attrs.apiGroup ?? ''}/${attrs.resource ?? ''}`);
      if (route !== undefined) return Promise.resolve(route(nodeName, attrs));
    }
    // Resources not subdivided: the static rules of every node.
    return Promise.resolve(this.#rules.some((r) => ruleAllows(attrs, r)) ? allow : noOpinion(''));
  }

  rulesFor(user: UserInfo): Promise<UserRules> {
    const isNode = nodeIdentity(user) !== undefined;
    return Promise.resolve({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: isNode,
      ...(isNode ? { evaluationError: 'node authorizer does not support user rule resolution' } : {}),
    });
  }

  /** authorizeStatusUpdate. */
  #statusUpdate(nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
    if (attrs.verb !== 'update' && attrs.verb !== 'patch')
      return noOpinion('can only get/update/patch this type');
    if (attrs.subresource !== 'status') return noOpinion('can only update status subresource');
    return this.#related(nodeName, type, attrs);
  }

  /** authorizeGet. */
  #get(nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
    if (attrs.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if ((attrs.subresource ?? '') !== '') return noOpinion('cannot get subresource');
    return this.#related(nodeName, type, attrs);
  }

  /** authorizeReadNamespacedObject: get, list or watch of one named object. */
  #readNamespaced(nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
    if (attrs.verb !== 'get' && attrs.verb !== 'list' && attrs.verb !== 'watch')
      return noOpinion('can only read resources of this type');
    if ((attrs.subresource ?? '') !== '') return noOpinion('cannot read subresource');
    if ((attrs.namespace ?? '') === '') return noOpinion('can only read namespaced object of this type');
    return this.#related(nodeName, type, attrs);
  }

  /** authorize: the named object must reach the node in the graph. */
  #related(nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
    const name = attrs.name ?? '';
    if (name === '') return noOpinion('No Object name found');
    return this.#hasPath(nodeName, type, attrs);
  }

  #hasPath(nodeName: string, type: VertexType, attrs: AuthorizationAttributes): AuthorizationResult {
    const found = this.#graph.hasPathFrom(nodeName, {
      type,
      namespace: attrs.namespace ?? '',
      name: attrs.name ?? '',
    });
    return found.ok ? allow : noOpinion(`no relationship found between node '${nodeName}' and this object`);
  }

  /** authorizeServiceAccount: a token for an account a pod on the node runs as. */
  #serviceAccount(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
    if (attrs.verb === 'get' && (attrs.subresource ?? '') === '') {
      if (!this.#serviceAccountGet) return noOpinion('not allowed to get service accounts');
      return this.#readNamespaced(nodeName, 'serviceAccount', attrs);
    }
    if (attrs.verb !== 'create' || (attrs.name ?? '') === '')
      return noOpinion('can only create tokens for individual service accounts');
    if (attrs.subresource !== 'token')
      return noOpinion('can only create token subresource of serviceaccount');
    return this.#hasPath(nodeName, 'serviceAccount', attrs);
  }

  /** authorizeResourceSlice (AuthorizeNodeWithSelectors on). */
  #resourceSlice(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
    if ((attrs.subresource ?? '') !== '') return noOpinion('cannot authorize ResourceSlice subresources');
    switch (attrs.verb) {
      case 'create':
        return allow;
      case 'get':
      case 'update':
      case 'patch':
      case 'delete':
        return this.#related(nodeName, 'resourceslice', attrs);
      case 'watch':
      case 'list':
      case 'deletecollection':
        return selectsExactly(attrs, 'spec.nodeName', nodeName)
          ? allow
          : noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
      default:
        return noOpinion(
          'only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection',
        );
    }
  }

  /** authorizePod (AuthorizeNodeWithSelectors on): writes are left to NodeRestriction. */
  #pod(nodeName: string, attrs: AuthorizationAttributes): AuthorizationResult {
    const sub = attrs.subresource ?? '';
    const verb = attrs.verb;
    if (sub === '') {
      if (verb === 'get') return this.#get(nodeName, 'pod', attrs);
      if (verb === 'list' || verb === 'watch') {
        if (selectsExactly(attrs, 'spec.nodeName', nodeName)) return allow;
        if ((attrs.name ?? '') !== '') return this.#related(nodeName, 'pod', attrs);
        return noOpinion('can only list/watch pods with spec.nodeName field selector');
      }
      if (verb === 'create' || verb === 'delete') return allow;
    } else if (sub === 'status') {
      if (verb === 'update' || verb === 'patch') return allow;
    } else if (sub === 'eviction' && verb === 'create') return allow;
    return noOpinion('');
  }
}

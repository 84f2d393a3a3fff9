// The four RBAC stores (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}):
// generic Stores with RBAC's validation and, given an escalation policy, kube's escalation checks
// (you may only grant what you hold; see escalation.ts).
import { rbacGroup, type ClusterRole, type Role, type RoleBinding } from '../../api/rbac/v1/rbac.js';
import type { KubeList, KubeObject } from '../../api/meta.js';
import type { ErrorList } from '../../machinery/validation/index.js';
import { completeWithOptions } from '../generic/complete.js';
import type { RESTOptionsGetter } from '../generic/rest-options.js';
import type { Store } from '../generic/store.js';
import type { ObjectCountMetric } from '../generic/store-definition.js';
import { validateObjectMetaUpdate } from '../generic/validate-meta-update.js';
import type { TableConvertor } from '../rest/capabilities.js';
import type { RBACResource } from './authorizer.js';
import type { RBACEscalationPolicy } from './escalation.js';
import type { CreateStrategy, UpdateStrategy } from '../rest/strategy.js';
import { bindingTableConvertor, roleTableConvertor } from './tables.js';
import {
  defaultBinding,
  validateBindingUpdate,
  validateClusterRole,
  validateClusterRoleBinding,
  validateRole,
  validateRoleBinding,
} from './validation.js';

export interface RBACStorageOptions {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly objectCountMetric?: ObjectCountMetric;
  /** Checks creates and updates for privilege escalation (the policybased stores); none when unset. */
  readonly escalation?: RBACEscalationPolicy;
}

interface KindSpec<T extends KubeObject> {
  readonly resource: RBACResource;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly validate: (obj: T) => ErrorList;
  readonly validateUpdate: (obj: T, old: T) => ErrorList;
  readonly defaults?: (obj: T) => void;
  readonly table: TableConvertor;
}

async function newRBACStore<T extends KubeObject>(
  spec: KindSpec<T>,
  opts: RBACStorageOptions,
): Promise<Store<T>> {
  const apiVersion = `${rbacGroup}/v1`;
  const strategy = {
    namespaceScoped: spec.namespaced,
    allowCreateOnUpdate: true,
    allowUnconditionalUpdate: true,
    // kube's decoder runs the v1 defaulters on every body, before admission and the field manager.
    defaultDecoded: (obj) => spec.defaults?.(obj),
    prepareForCreate: (_ctx, obj) => spec.defaults?.(obj),
    validate: (_ctx, obj) => spec.validate(obj),
    prepareForUpdate: (_ctx, obj) => spec.defaults?.(obj),
    validateUpdate: (_ctx, obj, old) => spec.validateUpdate(obj, old),
  } satisfies CreateStrategy<T> & UpdateStrategy<T>;
  const store = await completeWithOptions<T>(
    {
      qualifiedResource: { group: rbacGroup, resource: spec.resource },
      singularName: spec.kind.toLowerCase(),
      newFunc: () => ({ apiVersion, kind: spec.kind }) as T,
      newListFunc: (): KubeList<T> => ({ apiVersion, kind: `${spec.kind}List`, metadata: {}, items: [] }),
      createStrategy: strategy,
      updateStrategy: strategy,
      deleteStrategy: {},
      tableConvertor: spec.table,
      trackGeneration: false,
    },
    {
      restOptions: opts.restOptionsGetter,
      ...(opts.objectCountMetric === undefined ? {} : { objectCountMetric: opts.objectCountMetric }),
    },
  );
  return opts.escalation?.guard(spec.resource, store) ?? store;
}

/** Roles and ClusterRoles validate the whole object again on update. */
const roleUpdate =
  <T extends Role>(validate: (r: T) => ErrorList) =>
  (role: T, old: T): ErrorList => [
    ...validateObjectMetaUpdate(role.metadata ?? {}, old.metadata ?? {}),
    ...validate(role),
  ];

export const newRoleREST = (opts: RBACStorageOptions): Promise<Store<Role>> =>
  newRBACStore<Role>(
    {
      resource: 'roles',
      kind: 'Role',
      namespaced: true,
      validate: validateRole,
      validateUpdate: roleUpdate(validateRole),
      table: roleTableConvertor,
    },
    opts,
  );

export const newClusterRoleREST = (opts: RBACStorageOptions): Promise<Store<ClusterRole>> =>
  newRBACStore<ClusterRole>(
    {
      resource: 'clusterroles',
      kind: 'ClusterRole',
      namespaced: false,
      validate: validateClusterRole,
      validateUpdate: roleUpdate(validateClusterRole),
      table: roleTableConvertor,
    },
    opts,
  );

const bindingUpdate =
  (validate: (b: RoleBinding) => ErrorList) =>
  (binding: RoleBinding, old: RoleBinding): ErrorList => [
    ...validateBindingUpdate(binding, old),
    ...validate(binding),
  ];

export const newRoleBindingREST = (opts: RBACStorageOptions): Promise<Store<RoleBinding>> =>
  newRBACStore<RoleBinding>(
    {
      resource: 'rolebindings',
      kind: 'RoleBinding',
      namespaced: true,
      validate: validateRoleBinding,
      validateUpdate: bindingUpdate(validateRoleBinding),
      defaults: defaultBinding,
      table: bindingTableConvertor,
    },
    opts,
  );

export const newClusterRoleBindingREST = (opts: RBACStorageOptions): Promise<Store<RoleBinding>> =>
  newRBACStore<RoleBinding>(
    {
      resource: 'clusterrolebindings',
      kind: 'ClusterRoleBinding',
      namespaced: false,
      validate: validateClusterRoleBinding,
      validateUpdate: bindingUpdate(validateClusterRoleBinding),
      defaults: defaultBinding,
      table: bindingTableConvertor,
    },
    opts,
  );

// RBAC validation (pkg/apis/rbac/validation/validation.go) and the v1 defaults of role references
// and subjects (pkg/apis/rbac/v1/defaults.go).
import {
  rbacGroup,
  type ClusterRole,
  type PolicyRule,
  type Role,
  type RoleBinding,
  type Subject,
} from '../../api/rbac/v1/rbac.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateObjectMeta,
  validatePathSegmentName,
  type ErrorList,
} from '../../machinery/validation/index.js';
import { validateObjectMetaUpdate } from '../generic/validate-meta-update.js';

/** ValidateRBACName: any name usable as a path segment. */
const validateRBACName = validatePathSegmentName;

/** ValidatePolicyRule: verbs always; non-resource URLs only cluster-wide and never with resources. */
export function validatePolicyRule(
  rule: PolicyRule,
  opts: { namespaced: boolean; path: FieldPath },
): ErrorList {
  const errs: ErrorList = [];
  const path = opts.path;
  if ((rule.verbs ?? []).length === 0)
    errs.push(FieldError.required(path.child('verbs'), 'verbs must contain at least one value'));
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0) {
    if (opts.namespaced)
      errs.push(
        FieldError.invalid(
          path.child('nonResourceURLs'),
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    const resourceFields = [rule.apiGroups, rule.resources, rule.resourceNames];
    if (resourceFields.some((f) => (f ?? []).length > 0))
      errs.push(
        FieldError.invalid(
          path.child('nonResourceURLs'),
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if ((rule.apiGroups ?? []).length === 0)
    errs.push(
      FieldError.required(path.child('apiGroups'), 'resource rules must supply at least one api group'),
    );
  if ((rule.resources ?? []).length === 0)
    errs.push(
      FieldError.required(path.child('resources'), 'resource rules must supply at least one resource'),
    );
  return errs;
}

function rulesErrors(rules: readonly PolicyRule[] | undefined, namespaced: boolean): ErrorList {
  return (rules ?? []).flatMap((rule, i) =>
    validatePolicyRule(rule, { namespaced, path: FieldPath.of('rules').index(i) }),
  );
}

export function validateRole(role: Role): ErrorList {
  return [
    ...validateObjectMeta(role.metadata ?? {}, { requiresNamespace: true, validateName: validateRBACName }),
    ...rulesErrors(role.rules, true),
  ];
}

export function validateClusterRole(role: ClusterRole): ErrorList {
  const errs = [
    ...validateObjectMeta(role.metadata ?? {}, { requiresNamespace: false, validateName: validateRBACName }),
    ...rulesErrors(role.rules, false),
  ];
  if (role.aggregationRule !== undefined && (role.aggregationRule.clusterRoleSelectors ?? []).length === 0)
    errs.push(
      FieldError.required(
        FieldPath.of('aggregationRule', 'clusterRoleSelectors'),
        'at least one clusterRoleSelector required if aggregationRule is non-nil',
      ),
    );
  return errs;
}

const subjectKinds = ['ServiceAccount', 'User', 'Group'];

/** ValidateRoleBindingSubject. */
function validateSubject(subject: Subject, opts: { namespaced: boolean; path: FieldPath }): ErrorList {
  const errs: ErrorList = [];
  const path = opts.path;
  const name = subject.name ?? '';
  const apiGroup = subject.apiGroup ?? '';
  if (name === '') errs.push(FieldError.required(path.child('name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '')
        for (const msg of nameIsDNSSubdomain(name, false))
          errs.push(FieldError.invalid(path.child('name'), name, msg));
      if (apiGroup !== '') errs.push(FieldError.notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!opts.namespaced && (subject.namespace ?? '') === '')
        errs.push(FieldError.required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== rbacGroup)
        errs.push(FieldError.notSupported(path.child('apiGroup'), apiGroup, [rbacGroup]));
      break;
    default:
      errs.push(FieldError.notSupported(path.child('kind'), subject.kind, subjectKinds));
  }
  return errs;
}

function bindingErrors(binding: RoleBinding, opts: { namespaced: boolean; roleKinds: string[] }): ErrorList {
  const errs: ErrorList = [];
  const ref = binding.roleRef as Partial<RoleBinding['roleRef']> | undefined;
  const refPath = FieldPath.of('roleRef');
  const apiGroup = ref?.apiGroup ?? '';
  if (apiGroup !== rbacGroup)
    errs.push(FieldError.notSupported(refPath.child('apiGroup'), apiGroup, [rbacGroup]));
  const kind = ref?.kind ?? '';
  if (!opts.roleKinds.includes(kind))
    errs.push(FieldError.notSupported(refPath.child('kind'), kind, opts.roleKinds));
  const name = ref?.name ?? '';
  if (name === '') errs.push(FieldError.required(refPath.child('name')));
  else
    for (const msg of validateRBACName(name, false))
      errs.push(FieldError.invalid(refPath.child('name'), name, msg));
  (binding.subjects ?? []).forEach((s, i) => {
    errs.push(
      ...validateSubject(s, { namespaced: opts.namespaced, path: FieldPath.of('subjects').index(i) }),
    );
  });
  return errs;
}

export function validateRoleBinding(binding: RoleBinding): ErrorList {
  return [
    ...validateObjectMeta(binding.metadata ?? {}, {
      requiresNamespace: true,
      validateName: validateRBACName,
    }),
    ...bindingErrors(binding, { namespaced: true, roleKinds: ['Role', 'ClusterRole'] }),
  ];
}

export function validateClusterRoleBinding(binding: RoleBinding): ErrorList {
  return [
    ...validateObjectMeta(binding.metadata ?? {}, {
      requiresNamespace: false,
      validateName: validateRBACName,
    }),
    ...bindingErrors(binding, { namespaced: false, roleKinds: ['ClusterRole'] }),
  ];
}

const sameRoleRef = (a: RoleBinding, b: RoleBinding): boolean =>
  a.roleRef.apiGroup === b.roleRef.apiGroup &&
  a.roleRef.kind === b.roleRef.kind &&
  a.roleRef.name === b.roleRef.name;

/** ValidateRoleBindingUpdate / ValidateClusterRoleBindingUpdate: the role reference is fixed. */
export function validateBindingUpdate(binding: RoleBinding, old: RoleBinding): ErrorList {
  const errs = validateObjectMetaUpdate(binding.metadata ?? {}, old.metadata ?? {});
  if (!sameRoleRef(binding, old))
    errs.push(FieldError.invalid(FieldPath.of('roleRef'), binding.roleRef, 'cannot change roleRef'));
  return errs;
}

/** v1 defaults: a binding's role group, and User/Group subjects' group, default to RBAC's. */
export function defaultBinding(binding: RoleBinding): void {
  const ref = (binding.roleRef as Partial<RoleBinding['roleRef']> | undefined) ?? {};
  if ((ref.apiGroup ?? '') === '') ref.apiGroup = rbacGroup;
  binding.roleRef = {
    ...ref,
    apiGroup: ref.apiGroup ?? rbacGroup,
    kind: ref.kind ?? '',
    name: ref.name ?? '',
  };
  for (const s of binding.subjects ?? []) {
    if ((s.apiGroup ?? '') === '' && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = rbacGroup;
  }
}

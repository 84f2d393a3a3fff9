// FlowSchema validation (ValidateFlowSchema and its parts in pkg/apis/flowcontrol/validation).
import {
  distinguisherMethodTypes,
  maxMatchingPrecedence,
  subjectKinds,
  type FlowSchema,
  type FlowSchemaSpec,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type ResourcePolicyRule,
  type Subject,
} from '../../../api/flowcontrol/v1/flow-schema.js';
import {
  FieldError,
  FieldPath,
  nameIsDNSSubdomain,
  validateNamespaceName,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { validateCoreObjectMeta } from '../../core/namespace/finalizer-names.js';
import { validateConditions } from '../conditions.js';

const supportedVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'proxy',
  'update',
  'watch',
] as const;
const supportedVerbSet: ReadonlySet<string> = new Set(supportedVerbs);

const hasWildcard = (list: readonly string[]): boolean => list.includes('*');

function validateVerbs(verbs: readonly string[], path: FieldPath): ErrorList {
  if (verbs.length === 0) return [FieldError.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) {
    return verbs.length > 1
      ? [FieldError.invalid(path, verbs, "if '*' is present, must not specify other verbs")]
      : [];
  }
  return verbs.every((v) => supportedVerbSet.has(v))
    ? []
    : [FieldError.notSupported(path, verbs, supportedVerbs)];
}

/** ValidateNonResourceURLPath. */
function validateNonResourceURLPath(url: string, path: FieldPath): FieldError | undefined {
  if (url === '') return FieldError.invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return FieldError.invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return FieldError.invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return FieldError.invalid(path, url, 'must not contain double slash');
  const wildcards = url.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !url.endsWith('/*'))) {
    return FieldError.invalid(path, url, 'wildcard can only do suffix matching');
  }
  return undefined;
}

function validateNonResourceRule(rule: NonResourcePolicyRule, path: FieldPath): ErrorList {
  const errs = validateVerbs(rule.verbs ?? [], path.child('verbs'));
  const urls = rule.nonResourceURLs ?? [];
  const urlPath = path.child('nonResourceURLs');
  if (urls.length === 0) {
    errs.push(FieldError.required(urlPath, 'nonResourceURLs must contain at least one value'));
  } else if (hasWildcard(urls)) {
    if (urls.length > 1) {
      errs.push(
        FieldError.invalid(urlPath, urls, "if '*' is present, must not specify other non-resource URLs"),
      );
    }
  } else {
    urls.forEach((url, i) => {
      const err = validateNonResourceURLPath(url, urlPath.index(i));
      if (err !== undefined) errs.push(err);
    });
  }
  return errs;
}

const nsErrIntro = "each member of this list must be '*' or a DNS-1123 label; ";

function validateResourceRule(rule: ResourcePolicyRule, path: FieldPath): ErrorList {
  const errs = validateVerbs(rule.verbs ?? [], path.child('verbs'));
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) {
    errs.push(
      FieldError.required(path.child('apiGroups'), 'resource rules must supply at least one api group'),
    );
  } else if (groups.length > 1 && hasWildcard(groups)) {
    errs.push(
      FieldError.invalid(
        path.child('apiGroups'),
        groups,
        "if '*' is present, must not specify other api groups",
      ),
    );
  }
  const resources = rule.resources ?? [];
  if (resources.length === 0) {
    errs.push(
      FieldError.required(path.child('resources'), 'resource rules must supply at least one resource'),
    );
  } else if (resources.length > 1 && hasWildcard(resources)) {
    errs.push(
      FieldError.invalid(
        path.child('resources'),
        resources,
        "if '*' is present, must not specify other resources",
      ),
    );
  }
  const namespaces = rule.namespaces ?? [];
  const nsPath = path.child('namespaces');
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(
      FieldError.required(
        nsPath,
        'resource rules that are not cluster scoped must supply at least one namespace',
      ),
    );
  } else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) {
      errs.push(
        FieldError.invalid(nsPath, namespaces, "if '*' is present, must not specify other namespaces"),
      );
    }
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of validateNamespaceName(ns, false))
        errs.push(FieldError.invalid(nsPath.index(i), ns, nsErrIntro + msg));
    });
  }
  return errs;
}

function validateSubjectName(name: { name?: string } | undefined, path: FieldPath, what: string): ErrorList {
  if (name === undefined)
    return [
      FieldError.required(
        path,
        `${what} is required when subject kind is '${what === 'user' ? 'User' : 'Group'}'`,
      ),
    ];
  return (name.name ?? '') === '' ? [FieldError.required(path.child('name'), '')] : [];
}

function validateServiceAccountSubject(sa: Subject['serviceAccount'], path: FieldPath): ErrorList {
  if (sa === undefined) {
    return [FieldError.required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  }
  const errs: ErrorList = [];
  const name = sa.name ?? '';
  if (name === '') errs.push(FieldError.required(path.child('name'), ''));
  else if (name !== '*') {
    for (const msg of nameIsDNSSubdomain(name, false))
      errs.push(FieldError.invalid(path.child('name'), name, msg));
  }
  const ns = sa.namespace ?? '';
  if (ns === '')
    errs.push(FieldError.required(path.child('namespace'), 'must specify namespace for service account'));
  else
    for (const msg of validateNamespaceName(ns, false))
      errs.push(FieldError.invalid(path.child('namespace'), ns, msg));
  return errs;
}

const forbiddenUnless = {
  user: "user is forbidden when subject kind is not 'User'",
  group: "group is forbidden when subject kind is not 'Group'",
  serviceAccount: "serviceAccount is forbidden when subject kind is not 'ServiceAccount'",
} as const;

/** ValidateFlowSchemaSubject: the field its kind names, and none of the others. */
function validateSubject(subject: Subject, path: FieldPath): ErrorList {
  const others = (own: keyof typeof forbiddenUnless): ErrorList =>
    (['serviceAccount', 'user', 'group'] as const)
      .filter((f) => f !== own && subject[f] !== undefined)
      .map((f) => FieldError.forbidden(path.child(f), forbiddenUnless[f]));
  switch (subject.kind ?? '') {
    case 'ServiceAccount':
      return [
        ...validateServiceAccountSubject(subject.serviceAccount, path.child('serviceAccount')),
        ...others('serviceAccount'),
      ];
    case 'User':
      return [...validateSubjectName(subject.user, path.child('user'), 'user'), ...others('user')];
    case 'Group':
      return [...validateSubjectName(subject.group, path.child('group'), 'group'), ...others('group')];
    default:
      return [FieldError.notSupported(path.child('kind'), subject.kind, subjectKinds)];
  }
}

function validateRules(rule: PolicyRulesWithSubjects, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const subjects = rule.subjects ?? [];
  if (subjects.length === 0)
    errs.push(FieldError.required(path.child('subjects'), 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(s, path.child('subjects').index(i))));
  const resourceRules = rule.resourceRules ?? [];
  const nonResourceRules = rule.nonResourceRules ?? [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(
      FieldError.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'),
    );
  }
  resourceRules.forEach((r, i) =>
    errs.push(...validateResourceRule(r, path.child('resourceRules').index(i))),
  );
  nonResourceRules.forEach((r, i) =>
    errs.push(...validateNonResourceRule(r, path.child('nonResourceRules').index(i))),
  );
  return errs;
}

/** ValidateFlowSchemaSpec. */
function validateSpec(name: string, spec: FlowSchemaSpec, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const precedence = spec.matchingPrecedence ?? 0;
  const precedencePath = path.child('matchingPrecedence');
  if (precedence <= 0) errs.push(FieldError.invalid(precedencePath, precedence, 'must be a positive value'));
  if (precedence > maxMatchingPrecedence) {
    errs.push(
      FieldError.invalid(precedencePath, precedence, `must not be greater than ${maxMatchingPrecedence}`),
    );
  }
  if (precedence === 1 && name !== 'exempt') {
    errs.push(
      FieldError.invalid(
        precedencePath,
        precedence,
        "only the schema named 'exempt' may have matchingPrecedence 1",
      ),
    );
  }
  const method = spec.distinguisherMethod;
  if (method !== undefined && !(distinguisherMethodTypes as readonly string[]).includes(method.type ?? '')) {
    errs.push(
      FieldError.notSupported(path.child('distinguisherMethod', 'type'), method, distinguisherMethodTypes),
    );
  }
  const plName = spec.priorityLevelConfiguration?.name ?? '';
  const plPath = path.child('priorityLevelConfiguration', 'name');
  if (plName === '') errs.push(FieldError.required(plPath, 'must reference a priority level'));
  else
    for (const msg of nameIsDNSSubdomain(plName, false)) errs.push(FieldError.invalid(plPath, plName, msg));
  (spec.rules ?? []).forEach((rule, i) => errs.push(...validateRules(rule, path.child('rules').index(i))));
  return errs;
}

/** ValidateFlowSchema (also what an update is checked against). */
export function validateFlowSchema(fs: FlowSchema): ErrorList {
  return [
    ...validateCoreObjectMeta(fs.metadata ?? {}, {
      requiresNamespace: false,
      validateName: nameIsDNSSubdomain,
    }),
    ...validateSpec(fs.metadata?.name ?? '', fs.spec, FieldPath.of('spec')),
    ...validateFlowSchemaStatus(fs),
  ];
}

/** ValidateFlowSchemaStatus. */
export function validateFlowSchemaStatus(fs: FlowSchema): ErrorList {
  return validateConditions(fs.status?.conditions ?? [], FieldPath.of('status', 'conditions'));
}

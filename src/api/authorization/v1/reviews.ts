// authorization.k8s.io/v1: the access reviews (SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview) and SelfSubjectRulesReview (k8s.io/api/authorization/v1/types.go;
// protobuf field numbers from its struct tags). Created, answered, never stored.
import type { KubeObject, ObjectMeta } from '../../meta.js';
import { apiDefinitions, groupKind, type APIModule } from '../../schema/api-module.js';
import { atomicList, bool, mapOf, ref, str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import { pointer } from '../../schema/protobuf.js';
import {
  FIELD_SELECTOR_REQUIREMENT,
  LABEL_SELECTOR_REQUIREMENT,
  type FieldSelectorRequirement,
  type LabelSelectorRequirement,
} from '../../meta/v1/label-selector.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';

export const authorizationV1 = { group: 'authorization.k8s.io', version: 'v1' } as const;
const def = apiDefinitions('authorization', 'v1');

export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  fieldSelector?: { rawSelector?: string; requirements?: FieldSelectorRequirement[] };
  labelSelector?: { rawSelector?: string; requirements?: LabelSelectorRequirement[] };
}

export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

export interface SubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export interface AccessReview extends KubeObject {
  metadata?: ObjectMeta;
  spec: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface SelfSubjectRulesReview extends KubeObject {
  metadata?: ObjectMeta;
  spec: { namespace?: string };
  status?: {
    resourceRules: ResourceRule[];
    nonResourceRules: NonResourceRule[];
    incomplete: boolean;
    evaluationError?: string;
  };
}

const RESOURCE_ATTRIBUTES = def('ResourceAttributes');
const NON_RESOURCE_ATTRIBUTES = def('NonResourceAttributes');
const FIELD_SELECTOR_ATTRIBUTES = def('FieldSelectorAttributes');
const LABEL_SELECTOR_ATTRIBUTES = def('LabelSelectorAttributes');
const SAR_SPEC = def('SubjectAccessReviewSpec');
const SSAR_SPEC = def('SelfSubjectAccessReviewSpec');
const SAR_STATUS = def('SubjectAccessReviewStatus');
const SSRR_SPEC = def('SelfSubjectRulesReviewSpec');
const RULES_STATUS = def('SubjectRulesReviewStatus');
const RESOURCE_RULE = def('ResourceRule');
const NON_RESOURCE_RULE = def('NonResourceRule');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const metadata = ref(OBJECT_META, 'Standard object metadata.', { default: {} });
const strings = (description: string): Schema => atomicList(str(), description);

function review(description: string, spec: string, status: string): Schema {
  return struct(
    description,
    {
      apiVersion,
      kind,
      metadata,
      spec: ref(spec, 'What is asked.', { default: {} }),
      status: ref(status, 'The answer, filled in by the server.', { default: {} }),
    },
    { required: ['spec'] },
  );
}

const selectorAttributes = (what: string, requirement: string): Schema =>
  struct(`A ${what} selector limiting the request.`, {
    rawSelector: str(`The ${what} selector as text.`),
    requirements: atomicList(ref(requirement), `The ${what} selector as parsed requirements.`),
  });

export const authorizationV1Module: APIModule = {
  definitions: {
    [RESOURCE_ATTRIBUTES]: struct('A request for an API resource.', {
      fieldSelector: ref(FIELD_SELECTOR_ATTRIBUTES, 'The field selector of a list or watch.'),
      group: str('The API group; "*" means all.'),
      labelSelector: ref(LABEL_SELECTOR_ATTRIBUTES, 'The label selector of a list or watch.'),
      name: str('The name of the resource; "" means all.'),
      namespace: str('The namespace; "" means all for namespaced resources.'),
      resource: str('The resource; "*" means all.'),
      subresource: str('The subresource; "" means none.'),
      verb: str('A kube verb (get, list, watch, create, update, patch, delete…) or "*".'),
      version: str('The API version; "*" means all.'),
    }),
    [FIELD_SELECTOR_ATTRIBUTES]: selectorAttributes('field', FIELD_SELECTOR_REQUIREMENT),
    [LABEL_SELECTOR_ATTRIBUTES]: selectorAttributes('label', LABEL_SELECTOR_REQUIREMENT),
    [NON_RESOURCE_ATTRIBUTES]: struct('A request for a non-resource path.', {
      path: str('The URL path.'),
      verb: str('The HTTP verb, lower case.'),
    }),
    [SAR_SPEC]: struct('The request and the subject it is asked for.', {
      extra: mapOf(strings('Values of one extra attribute.'), 'Extra attributes of the user.'),
      groups: strings('Groups of the user.'),
      nonResourceAttributes: ref(NON_RESOURCE_ATTRIBUTES, 'A non-resource request.'),
      resourceAttributes: ref(RESOURCE_ATTRIBUTES, 'A resource request.'),
      uid: str('The UID of the user.'),
      user: str('The user name.'),
    }),
    [SSAR_SPEC]: struct('The request, asked for the caller.', {
      nonResourceAttributes: ref(NON_RESOURCE_ATTRIBUTES, 'A non-resource request.'),
      resourceAttributes: ref(RESOURCE_ATTRIBUTES, 'A resource request.'),
    }),
    [SAR_STATUS]: struct(
      'Whether the request would be allowed.',
      {
        allowed: bool('The request would be allowed.'),
        denied: bool('The request would be denied, whatever other authorizers say.'),
        evaluationError: str('Why the answer may be incomplete.'),
        reason: str('Why, when known.'),
      },
      { required: ['allowed'] },
    ),
    [SSRR_SPEC]: struct('The namespace whose rules are listed.', { namespace: str('The namespace.') }),
    [RESOURCE_RULE]: struct(
      'Verbs on resources the caller may use.',
      {
        apiGroups: strings('API groups.'),
        resourceNames: strings('Names; empty means all.'),
        resources: strings('Resources.'),
        verbs: strings('Verbs.'),
      },
      { required: ['verbs'] },
    ),
    [NON_RESOURCE_RULE]: struct(
      'Verbs on non-resource paths the caller may use.',
      { nonResourceURLs: strings('Paths; "*" suffixes allowed.'), verbs: strings('Verbs.') },
      { required: ['verbs'] },
    ),
    [RULES_STATUS]: struct(
      'The rules the caller holds.',
      {
        evaluationError: str('Why the list may be incomplete.'),
        incomplete: bool('The list may miss rules.'),
        nonResourceRules: atomicList(
          ref(NON_RESOURCE_RULE, undefined, { default: {} }),
          'Non-resource rules.',
        ),
        resourceRules: atomicList(ref(RESOURCE_RULE, undefined, { default: {} }), 'Resource rules.'),
      },
      { required: ['resourceRules', 'nonResourceRules', 'incomplete'] },
    ),
    [def('SubjectAccessReview')]: review(
      'Whether a user or group may perform an action.',
      SAR_SPEC,
      SAR_STATUS,
    ),
    [def('LocalSubjectAccessReview')]: review(
      'Whether a user or group may perform an action in a namespace.',
      SAR_SPEC,
      SAR_STATUS,
    ),
    [def('SelfSubjectAccessReview')]: review(
      'Whether the caller may perform an action.',
      SSAR_SPEC,
      SAR_STATUS,
    ),
    [def('SelfSubjectRulesReview')]: review(
      'What the caller may do in a namespace.',
      SSRR_SPEC,
      RULES_STATUS,
    ),
  },
  kinds: [
    'SubjectAccessReview',
    'LocalSubjectAccessReview',
    'SelfSubjectAccessReview',
    'SelfSubjectRulesReview',
  ].map((k) => groupKind(authorizationV1, k, def(k))),
  protobuf: {
    [RESOURCE_ATTRIBUTES]: {
      namespace: 1,
      verb: 2,
      group: 3,
      version: 4,
      resource: 5,
      subresource: 6,
      name: 7,
      fieldSelector: pointer(8),
      labelSelector: pointer(9),
    },
    [FIELD_SELECTOR_ATTRIBUTES]: { rawSelector: 1, requirements: 2 },
    [LABEL_SELECTOR_ATTRIBUTES]: { rawSelector: 1, requirements: 2 },
    [NON_RESOURCE_ATTRIBUTES]: { path: 1, verb: 2 },
    [SAR_SPEC]: {
      resourceAttributes: pointer(1),
      nonResourceAttributes: pointer(2),
      user: 3,
      groups: 4,
      extra: { field: 5, codec: 'extraValue' },
      uid: 6,
    },
    [SSAR_SPEC]: { resourceAttributes: pointer(1), nonResourceAttributes: pointer(2) },
    [SAR_STATUS]: { allowed: 1, denied: 4, reason: 2, evaluationError: 3 },
    [SSRR_SPEC]: { namespace: 1 },
    [RULES_STATUS]: { resourceRules: 1, nonResourceRules: 2, incomplete: 3, evaluationError: 4 },
    [RESOURCE_RULE]: { verbs: 1, apiGroups: 2, resources: 3, resourceNames: 4 },
    [NON_RESOURCE_RULE]: { verbs: 1, nonResourceURLs: 2 },
    ...Object.fromEntries(
      [
        'SubjectAccessReview',
        'LocalSubjectAccessReview',
        'SelfSubjectAccessReview',
        'SelfSubjectRulesReview',
      ].map((k) => [def(k), { metadata: 1, spec: 2, status: 3 }]),
    ),
  },
};

export const authorizationV1Modules: readonly APIModule[] = [authorizationV1Module];

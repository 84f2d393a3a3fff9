// flowcontrol.apiserver.k8s.io/v1 FlowSchema(+List) (k8s.io/api/flowcontrol/v1/types.go): which
// requests go to which priority level.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import type { APIModule } from '../../schema/api-module.js';
import { apiDefinitions, groupKind } from '../../schema/api-module.js';
import {
  arrayOf,
  atomicList,
  bool,
  int32,
  mapList,
  ref,
  str,
  stringSet,
  struct,
} from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';

export const flowcontrolV1 = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1' } as const;
export const flowcontrolV1Def = apiDefinitions('flowcontrol', 'v1');

export const subjectKinds = ['Group', 'ServiceAccount', 'User'] as const;
export const distinguisherMethodTypes = ['ByNamespace', 'ByUser'] as const;

/** FlowSchemaMaxMatchingPrecedence. */
export const maxMatchingPrecedence = 10_000;
/** SetDefaults_FlowSchemaSpec: a zero matchingPrecedence becomes this. */
export const defaultMatchingPrecedence = 1000;
/** The annotation that lets the server keep a bootstrap object's spec (AutoUpdateAnnotationKey). */
export const autoUpdateAnnotationKey = 'apf.kubernetes.io/autoupdate-spec';

export interface Subject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { namespace?: string; name?: string };
}

export interface ResourcePolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface NonResourcePolicyRule {
  verbs?: string[];
  nonResourceURLs?: string[];
}

export interface PolicyRulesWithSubjects {
  subjects?: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration?: { name?: string };
  matchingPrecedence?: number;
  distinguisherMethod?: { type?: string };
  rules?: PolicyRulesWithSubjects[];
}

/** FlowSchemaCondition and PriorityLevelConfigurationCondition share this shape. */
export interface FlowcontrolCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface FlowSchema extends KubeObject {
  apiVersion?: 'flowcontrol.apiserver.k8s.io/v1';
  kind?: 'FlowSchema';
  metadata?: ObjectMeta;
  spec: FlowSchemaSpec;
  status?: { conditions?: FlowcontrolCondition[] };
}

export interface FlowSchemaList extends KubeObject {
  metadata?: ListMeta;
  items: FlowSchema[];
}

const FLOW_SCHEMA = flowcontrolV1Def('FlowSchema');
const FLOW_SCHEMA_LIST = flowcontrolV1Def('FlowSchemaList');
const FLOW_SCHEMA_SPEC = flowcontrolV1Def('FlowSchemaSpec');
const FLOW_SCHEMA_STATUS = flowcontrolV1Def('FlowSchemaStatus');
const FLOW_SCHEMA_CONDITION = flowcontrolV1Def('FlowSchemaCondition');
const DISTINGUISHER = flowcontrolV1Def('FlowDistinguisherMethod');
const PL_REFERENCE = flowcontrolV1Def('PriorityLevelConfigurationReference');
const RULES = flowcontrolV1Def('PolicyRulesWithSubjects');
const SUBJECT = flowcontrolV1Def('Subject');
const USER_SUBJECT = flowcontrolV1Def('UserSubject');
const GROUP_SUBJECT = flowcontrolV1Def('GroupSubject');
const SA_SUBJECT = flowcontrolV1Def('ServiceAccountSubject');
const RESOURCE_RULE = flowcontrolV1Def('ResourcePolicyRule');
const NON_RESOURCE_RULE = flowcontrolV1Def('NonResourcePolicyRule');

export const flowSchemaKind = groupKind(flowcontrolV1, 'FlowSchema', FLOW_SCHEMA);
export const flowSchemaListKind = groupKind(flowcontrolV1, 'FlowSchemaList', FLOW_SCHEMA_LIST);

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const name = (description: string): Schema => str(description, { default: '' });
type Schema = ReturnType<typeof str>;

/** The condition definition both kinds use, under its own name. */
export function conditionDefinition(what: string): Schema {
  return struct(`A condition of a ${what}.`, {
    lastTransitionTime: ref(TIME, 'When the condition last changed status.'),
    message: str('A human-readable message about the last transition.'),
    reason: str('A one-word CamelCase reason for the last transition.'),
    status: str('True, False or Unknown.'),
    type: str('The type of the condition.'),
  });
}

export const conditionProtobuf = {
  type: 1,
  status: 2,
  lastTransitionTime: 3,
  reason: 4,
  message: 5,
} as const;

export const flowSchemaModule: APIModule = {
  definitions: {
    [USER_SUBJECT]: struct(
      'Matches a user by name.',
      { name: name('The user name, or "*".') },
      { required: ['name'] },
    ),
    [GROUP_SUBJECT]: struct(
      'Matches a user group by name.',
      { name: name('The group, or "*".') },
      { required: ['name'] },
    ),
    [SA_SUBJECT]: struct(
      'Matches service accounts.',
      {
        name: name('The service account name, or "*".'),
        namespace: name('The namespace of the service accounts.'),
      },
      { required: ['namespace', 'name'] },
    ),
    [SUBJECT]: struct(
      'Matches the originator of a request.',
      {
        group: ref(GROUP_SUBJECT, 'Matches by user group.'),
        kind: str('Which of the other fields is set: Group, ServiceAccount or User.', { default: '' }),
        serviceAccount: ref(SA_SUBJECT, 'Matches service accounts.'),
        user: ref(USER_SUBJECT, 'Matches by user name.'),
      },
      { required: ['kind'] },
    ),
    [RESOURCE_RULE]: struct(
      'Matches resource requests by verb, group, resource and namespace.',
      {
        apiGroups: stringSet('Matching API groups; "*" matches all.'),
        clusterScope: bool('Whether requests without a namespace match.'),
        namespaces: stringSet('Matching namespaces; "*" matches every namespace.'),
        resources: stringSet('Matching resources (with subresource); "*" matches all.'),
        verbs: stringSet('Matching verbs; "*" matches all.'),
      },
      { required: ['verbs', 'apiGroups', 'resources'] },
    ),
    [NON_RESOURCE_RULE]: struct(
      'Matches non-resource requests by verb and URL.',
      {
        nonResourceURLs: stringSet('Matching URL prefixes; "*" matches all.'),
        verbs: stringSet('Matching verbs; "*" matches all.'),
      },
      { required: ['verbs', 'nonResourceURLs'] },
    ),
    [RULES]: struct(
      'A test on the subject and the request.',
      {
        nonResourceRules: atomicList(
          ref(NON_RESOURCE_RULE, undefined, { default: {} }),
          'Non-resource rules.',
        ),
        resourceRules: atomicList(ref(RESOURCE_RULE, undefined, { default: {} }), 'Resource rules.'),
        subjects: atomicList(ref(SUBJECT, undefined, { default: {} }), 'The subjects this rule cares about.'),
      },
      { required: ['subjects'] },
    ),
    [DISTINGUISHER]: struct(
      'How the flow distinguisher is computed.',
      { type: str('ByUser or ByNamespace.', { default: '' }) },
      { required: ['type'] },
    ),
    [PL_REFERENCE]: struct(
      'Names a PriorityLevelConfiguration.',
      { name: name('The name of the priority level.') },
      { required: ['name'] },
    ),
    [FLOW_SCHEMA_SPEC]: struct(
      'Which requests a FlowSchema matches and where they go.',
      {
        distinguisherMethod: ref(DISTINGUISHER, 'How to compute the flow distinguisher.'),
        matchingPrecedence: int32('Lower values are considered first (1 to 10000).', { default: 0 }),
        priorityLevelConfiguration: ref(PL_REFERENCE, 'The priority level of matching requests.', {
          default: {},
        }),
        rules: atomicList(ref(RULES, undefined, { default: {} }), 'Requests matching any rule match.'),
      },
      { required: ['priorityLevelConfiguration'] },
    ),
    [FLOW_SCHEMA_CONDITION]: conditionDefinition('FlowSchema'),
    [FLOW_SCHEMA_STATUS]: struct('The current state of a FlowSchema.', {
      conditions: mapList(ref(FLOW_SCHEMA_CONDITION, undefined, { default: {} }), 'type', 'The conditions.'),
    }),
    [FLOW_SCHEMA]: struct('Defines a group of flows and their priority level.', {
      apiVersion,
      kind,
      metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
      spec: ref(FLOW_SCHEMA_SPEC, 'The desired behavior of the FlowSchema.', { default: {} }),
      status: ref(FLOW_SCHEMA_STATUS, 'The current status of the FlowSchema.', { default: {} }),
    }),
    [FLOW_SCHEMA_LIST]: struct(
      'A list of FlowSchemas.',
      {
        apiVersion,
        items: arrayOf(ref(FLOW_SCHEMA, undefined, { default: {} }), 'The FlowSchemas.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [flowSchemaKind, flowSchemaListKind],
  goTypes: {
    [SUBJECT]: { kind: 'v1.SubjectKind' },
    [DISTINGUISHER]: { type: 'v1.FlowDistinguisherMethodType' },
  },
  // k8s.io/api/flowcontrol/v1 generated.proto.
  protobuf: {
    [FLOW_SCHEMA]: { metadata: 1, spec: 2, status: 3 },
    [FLOW_SCHEMA_LIST]: { metadata: 1, items: 2 },
    [FLOW_SCHEMA_SPEC]: {
      priorityLevelConfiguration: 1,
      matchingPrecedence: 2,
      distinguisherMethod: pointer(3),
      rules: 4,
    },
    [DISTINGUISHER]: { type: 1 },
    [PL_REFERENCE]: { name: 1 },
    [RULES]: { subjects: 1, resourceRules: 2, nonResourceRules: 3 },
    [SUBJECT]: { kind: 1, user: pointer(2), group: pointer(3), serviceAccount: pointer(4) },
    [USER_SUBJECT]: { name: 1 },
    [GROUP_SUBJECT]: { name: 1 },
    [SA_SUBJECT]: { namespace: 1, name: 2 },
    [RESOURCE_RULE]: { verbs: 1, apiGroups: 2, resources: 3, clusterScope: 4, namespaces: 5 },
    [NON_RESOURCE_RULE]: { verbs: 1, nonResourceURLs: 6 },
    [FLOW_SCHEMA_STATUS]: { conditions: 1 },
    [FLOW_SCHEMA_CONDITION]: conditionProtobuf,
  },
};

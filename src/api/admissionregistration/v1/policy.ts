// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding
// (GA in 1.30; k8s.io/api/admissionregistration/v1/types.go, protobuf numbers from the struct tags).
import type { Condition } from '../../core/v1/service.js';
import type { KubeObject, ObjectMeta } from '../../meta.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { groupKind, metaV1, type APIModule } from '../../schema/api-module.js';
import { atomicList, int64, mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import type { Schema } from '../../schema/types.js';
import {
  admissionDef,
  admissionregistrationV1,
  apiVersionField,
  kindField,
  listOf,
  MATCH_CONDITION,
  metadataField,
  RULE_WITH_OPERATIONS,
  type MatchCondition,
  type RuleWithOperations,
} from './webhook.js';

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: string;
  messageExpression?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface Variable {
  name: string;
  expression: string;
}

export interface ValidatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: string;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

export interface ValidatingAdmissionPolicyStatus {
  observedGeneration?: number;
  typeChecking?: { expressionWarnings?: ExpressionWarning[] };
  conditions?: Condition[];
}

export interface ValidatingAdmissionPolicy extends KubeObject {
  metadata?: ObjectMeta;
  spec?: ValidatingAdmissionPolicySpec;
  status?: ValidatingAdmissionPolicyStatus;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: string;
}

export interface ValidatingAdmissionPolicyBindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: string[];
}

export interface ValidatingAdmissionPolicyBinding extends KubeObject {
  metadata?: ObjectMeta;
  spec?: ValidatingAdmissionPolicyBindingSpec;
}

const POLICY = admissionDef('ValidatingAdmissionPolicy');
const BINDING = admissionDef('ValidatingAdmissionPolicyBinding');
const POLICY_SPEC = admissionDef('ValidatingAdmissionPolicySpec');
const POLICY_STATUS = admissionDef('ValidatingAdmissionPolicyStatus');
const BINDING_SPEC = admissionDef('ValidatingAdmissionPolicyBindingSpec');
const PARAM_KIND = admissionDef('ParamKind');
const PARAM_REF = admissionDef('ParamRef');
const MATCH_RESOURCES = admissionDef('MatchResources');
const NAMED_RULE = admissionDef('NamedRuleWithOperations');
const VALIDATION = admissionDef('Validation');
const AUDIT_ANNOTATION = admissionDef('AuditAnnotation');
const VARIABLE = admissionDef('Variable');
const TYPE_CHECKING = admissionDef('TypeChecking');
const EXPRESSION_WARNING = admissionDef('ExpressionWarning');
const CONDITION = metaV1('Condition');

const strings = (description: string): Schema => atomicList({ type: 'string' }, description);
const namedRules = (description: string): Schema =>
  atomicList(ref(NAMED_RULE, undefined, { default: {} }), description);

export const policyModule: APIModule = {
  definitions: {
    [PARAM_KIND]: struct(
      'The kind of the resources holding a policy parameters.',
      { apiVersion: str('The group/version of the parameter kind.'), kind: str('The parameter kind.') },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [NAMED_RULE]: struct(
      'A rule, optionally restricted to named objects.',
      {
        apiGroups: strings('API groups the resources belong to; "*" is all groups.'),
        apiVersions: strings('API versions the resources belong to; "*" is all versions.'),
        operations: strings('CREATE, UPDATE, DELETE, CONNECT or "*".'),
        resourceNames: strings('Names of the objects the rule is limited to; empty is all.'),
        resources: strings('Resources the rule applies to, "pods/status" for subresources; "*" is all.'),
        scope: str('Cluster, Namespaced or "*" (the default).'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [MATCH_RESOURCES]: struct(
      'Which requests a policy or binding applies to.',
      {
        excludeResourceRules: namedRules('Requests excluded even when a resource rule matches.'),
        matchPolicy: str('Exact or Equivalent (the default).'),
        namespaceSelector: ref(LABEL_SELECTOR, 'Selects the namespaces whose objects match.'),
        objectSelector: ref(LABEL_SELECTOR, 'Selects the objects that match by their labels.'),
        resourceRules: namedRules('The operations and resources that match.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [VALIDATION]: struct(
      'A CEL expression an admitted object must satisfy.',
      {
        expression: str('The CEL expression; it must evaluate to a bool.'),
        message: str('The message returned when the expression is false.'),
        messageExpression: str('A CEL expression producing the message.'),
        reason: str('Unauthorized, Forbidden, Invalid or RequestEntityTooLarge.'),
      },
      { required: ['expression'] },
    ),
    [AUDIT_ANNOTATION]: struct(
      'An audit annotation a policy produces.',
      {
        key: str('The annotation key, qualified with the policy name.'),
        valueExpression: str('A CEL expression producing the value.'),
      },
      { required: ['key', 'valueExpression'] },
    ),
    [VARIABLE]: struct(
      'A named CEL expression other expressions may use.',
      { expression: str('The CEL expression.'), name: str('The variable name.') },
      { required: ['name', 'expression'], 'x-kubernetes-map-type': 'atomic' },
    ),
    [POLICY_SPEC]: struct('What a policy checks and when.', {
      auditAnnotations: atomicList(ref(AUDIT_ANNOTATION, undefined, { default: {} }), 'Audit annotations.'),
      failurePolicy: str('Ignore or Fail (the default) when evaluation fails.'),
      matchConditions: mapList(
        ref(MATCH_CONDITION, undefined, { default: {} }),
        'name',
        'CEL conditions a request must meet to be validated.',
      ),
      matchConstraints: ref(MATCH_RESOURCES, 'The resources the policy applies to.'),
      paramKind: ref(PARAM_KIND, 'The kind of the parameter resources.'),
      validations: atomicList(ref(VALIDATION, undefined, { default: {} }), 'The CEL validations.'),
      variables: atomicList(ref(VARIABLE, undefined, { default: {} }), 'Variables the expressions use.'),
    }),
    [EXPRESSION_WARNING]: struct(
      'A type checking warning about one expression.',
      {
        fieldRef: str('The path of the expression.'),
        warning: str('The warning.'),
      },
      { required: ['fieldRef', 'warning'] },
    ),
    [TYPE_CHECKING]: struct('The results of type checking the expressions.', {
      expressionWarnings: atomicList(ref(EXPRESSION_WARNING, undefined, { default: {} }), 'The warnings.'),
    }),
    [POLICY_STATUS]: struct('What the policy controller last observed.', {
      conditions: mapList(ref(CONDITION, undefined, { default: {} }), 'type', 'The latest observations.'),
      observedGeneration: int64('The generation the status was computed for.'),
      typeChecking: ref(TYPE_CHECKING, 'The results of type checking.'),
    }),
    [POLICY]: struct('A policy of CEL validations applied to admitted objects.', {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: metadataField,
      spec: ref(POLICY_SPEC, 'The desired behaviour.', { default: {} }),
      status: ref(POLICY_STATUS, 'The observed state.', { default: {} }),
    }),
    [PARAM_REF]: struct(
      'The parameter resources of a binding.',
      {
        name: str('The name of the parameter resource.'),
        namespace: str('The namespace of the parameter resources.'),
        parameterNotFoundAction: str('Allow or Deny when no parameter is found.'),
        selector: ref(LABEL_SELECTOR, 'Selects parameter resources by label.'),
      },
      { 'x-kubernetes-map-type': 'atomic' },
    ),
    [BINDING_SPEC]: struct('What a binding binds and how.', {
      matchResources: ref(MATCH_RESOURCES, 'Narrows the resources the policy applies to.'),
      paramRef: ref(PARAM_REF, 'The parameters of the policy.'),
      policyName: str('The name of the policy bound.'),
      validationActions: stringsSet('Deny, Warn and/or Audit.'),
    }),
    [BINDING]: struct('Binds a ValidatingAdmissionPolicy to resources and parameters.', {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: metadataField,
      spec: ref(BINDING_SPEC, 'The desired behaviour.', { default: {} }),
    }),
    [admissionDef('ValidatingAdmissionPolicyList')]: listOf(POLICY, 'ValidatingAdmissionPolicies'),
    [admissionDef('ValidatingAdmissionPolicyBindingList')]: listOf(
      BINDING,
      'ValidatingAdmissionPolicyBindings',
    ),
  },
  kinds: ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].flatMap((k) => [
    groupKind(admissionregistrationV1, k, admissionDef(k)),
    groupKind(admissionregistrationV1, `${k}List`, admissionDef(`${k}List`)),
  ]),
  goTypes: {
    [NAMED_RULE]: { scope: 'v1.ScopeType', operations: '[]v1.OperationType' },
    [MATCH_RESOURCES]: { matchPolicy: 'v1.MatchPolicyType' },
    [VALIDATION]: { reason: 'v1.StatusReason' },
    [POLICY_SPEC]: { failurePolicy: 'v1.FailurePolicyType' },
    [PARAM_REF]: { parameterNotFoundAction: 'v1.ParameterNotFoundActionType' },
    [BINDING_SPEC]: { validationActions: '[]v1.ValidationAction' },
  },
  protobuf: {
    [PARAM_KIND]: { apiVersion: 1, kind: 2 },
    [NAMED_RULE]: { resourceNames: 1, RuleWithOperations: { field: 2, inline: RULE_WITH_OPERATIONS } },
    [MATCH_RESOURCES]: {
      namespaceSelector: pointer(1),
      objectSelector: pointer(2),
      resourceRules: 3,
      excludeResourceRules: 4,
      matchPolicy: pointer(7),
    },
    [VALIDATION]: { expression: 1, message: 2, reason: pointer(3), messageExpression: 4 },
    [AUDIT_ANNOTATION]: { key: 1, valueExpression: 2 },
    [VARIABLE]: { name: 1, expression: 2 },
    [POLICY_SPEC]: {
      paramKind: pointer(1),
      matchConstraints: pointer(2),
      validations: 3,
      failurePolicy: pointer(4),
      auditAnnotations: 5,
      matchConditions: 6,
      variables: 7,
    },
    [EXPRESSION_WARNING]: { fieldRef: 2, warning: 3 },
    [TYPE_CHECKING]: { expressionWarnings: 1 },
    [POLICY_STATUS]: { observedGeneration: 1, typeChecking: pointer(2), conditions: 3 },
    [POLICY]: { metadata: 1, spec: 2, status: 3 },
    [PARAM_REF]: { name: 1, namespace: 2, selector: pointer(3), parameterNotFoundAction: pointer(4) },
    [BINDING_SPEC]: { policyName: 1, paramRef: pointer(2), matchResources: pointer(3), validationActions: 4 },
    [BINDING]: { metadata: 1, spec: 2 },
    [admissionDef('ValidatingAdmissionPolicyList')]: { metadata: 1, items: 2 },
    [admissionDef('ValidatingAdmissionPolicyBindingList')]: { metadata: 1, items: 2 },
  },
};

function stringsSet(description: string): Schema {
  return { type: 'array', items: { type: 'string' }, description, 'x-kubernetes-list-type': 'set' };
}

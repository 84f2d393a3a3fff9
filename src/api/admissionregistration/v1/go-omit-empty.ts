// Generated from k8s.io/api admissionregistration/v1 types.go as of kube 1.33: the members of each struct whose Go field
// is tagged omitempty and can be empty (go-omit-empty.ts says what each class drops). A
// definition listed without members has none; struct-typed members are never dropped, so not listed.
import type { APIModule } from '../../schema/api-module.js';
import type { GoOmitEmptyTables } from '../../schema/go-omit-empty.js';

const def = (name: string): string => `io.k8s.api.admissionregistration.v1.${name}`;

const tables: GoOmitEmptyTables = {
  [def('AuditAnnotation')]: {},
  [def('ExpressionWarning')]: {},
  [def('MatchCondition')]: {},
  [def('MatchResources')]: {
    namespaceSelector: 'nil',
    objectSelector: 'nil',
    resourceRules: 'empty',
    excludeResourceRules: 'empty',
    matchPolicy: 'nil',
  },
  [def('MutatingWebhook')]: {
    rules: 'empty',
    failurePolicy: 'nil',
    matchPolicy: 'nil',
    namespaceSelector: 'nil',
    objectSelector: 'nil',
    timeoutSeconds: 'nil',
    reinvocationPolicy: 'nil',
    matchConditions: 'empty',
  },
  [def('MutatingWebhookConfiguration')]: { webhooks: 'empty' },
  [def('MutatingWebhookConfigurationList')]: {},
  [def('NamedRuleWithOperations')]: {
    resourceNames: 'empty',
    operations: 'empty',
    apiGroups: 'empty',
    apiVersions: 'empty',
    resources: 'empty',
    scope: 'nil',
  },
  [def('ParamKind')]: { apiVersion: 'zero', kind: 'zero' },
  [def('ParamRef')]: { name: 'zero', namespace: 'zero', selector: 'nil', parameterNotFoundAction: 'nil' },
  [def('Rule')]: { apiGroups: 'empty', apiVersions: 'empty', resources: 'empty', scope: 'nil' },
  [def('RuleWithOperations')]: {
    operations: 'empty',
    apiGroups: 'empty',
    apiVersions: 'empty',
    resources: 'empty',
    scope: 'nil',
  },
  [def('ServiceReference')]: { path: 'nil', port: 'nil' },
  [def('TypeChecking')]: { expressionWarnings: 'empty' },
  [def('ValidatingAdmissionPolicy')]: {},
  [def('ValidatingAdmissionPolicyBinding')]: {},
  [def('ValidatingAdmissionPolicyBindingList')]: {},
  [def('ValidatingAdmissionPolicyBindingSpec')]: {
    policyName: 'zero',
    paramRef: 'nil',
    matchResources: 'nil',
    validationActions: 'empty',
  },
  [def('ValidatingAdmissionPolicyList')]: {},
  [def('ValidatingAdmissionPolicySpec')]: {
    paramKind: 'nil',
    matchConstraints: 'nil',
    validations: 'empty',
    failurePolicy: 'nil',
    auditAnnotations: 'empty',
    matchConditions: 'empty',
    variables: 'empty',
  },
  [def('ValidatingAdmissionPolicyStatus')]: {
    observedGeneration: 'zero',
    typeChecking: 'nil',
    conditions: 'empty',
  },
  [def('ValidatingWebhook')]: {
    rules: 'empty',
    failurePolicy: 'nil',
    matchPolicy: 'nil',
    namespaceSelector: 'nil',
    objectSelector: 'nil',
    timeoutSeconds: 'nil',
    matchConditions: 'empty',
  },
  [def('ValidatingWebhookConfiguration')]: { webhooks: 'empty' },
  [def('ValidatingWebhookConfigurationList')]: {},
  [def('Validation')]: { message: 'zero', reason: 'nil', messageExpression: 'zero' },
  [def('Variable')]: {},
  [def('WebhookClientConfig')]: { url: 'nil', service: 'nil', caBundle: 'zero' },
};

export const admissionregistrationV1GoOmitEmptyModule: APIModule = { definitions: {}, goOmitEmpty: tables };

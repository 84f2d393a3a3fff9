// admissionregistration.k8s.io/v1 webhook configurations (k8s.io/api/admissionregistration/v1/types.go):
// ValidatingWebhookConfiguration, MutatingWebhookConfiguration and the rules they share with the
// admission policies. Protobuf field numbers from the struct tags.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import { LABEL_SELECTOR, type LabelSelector } from '../../meta/v1/label-selector.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META } from '../../meta/v1/object-meta.js';
import { apiDefinitions, groupKind, type APIModule } from '../../schema/api-module.js';
import { arrayOf, atomicList, bytes, int32, mapList, ref, str, struct } from '../../schema/builders.js';
import { pointer } from '../../schema/protobuf.js';
import type { Schema } from '../../schema/types.js';

export const admissionregistrationGroup = 'admissionregistration.k8s.io';
export const admissionregistrationV1 = { group: admissionregistrationGroup, version: 'v1' } as const;
export const admissionDef = apiDefinitions('admissionregistration', 'v1');

export interface Rule {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface RuleWithOperations extends Rule {
  operations?: string[];
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface ValidatingWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  reinvocationPolicy?: string;
}

export interface ValidatingWebhookConfiguration extends KubeObject {
  metadata?: ObjectMeta;
  webhooks?: ValidatingWebhook[];
}

export interface MutatingWebhookConfiguration extends KubeObject {
  metadata?: ObjectMeta;
  webhooks?: MutatingWebhook[];
}

export interface AdmissionList<T> extends KubeObject {
  metadata?: ListMeta;
  items: T[];
}

export const RULE = admissionDef('Rule');
export const RULE_WITH_OPERATIONS = admissionDef('RuleWithOperations');
export const MATCH_CONDITION = admissionDef('MatchCondition');
const SERVICE_REFERENCE = admissionDef('ServiceReference');
const CLIENT_CONFIG = admissionDef('WebhookClientConfig');
const VALIDATING_WEBHOOK = admissionDef('ValidatingWebhook');
const MUTATING_WEBHOOK = admissionDef('MutatingWebhook');

export const apiVersionField = str('Versioned schema of this representation.');
export const kindField = str('REST resource this object represents.');
export const metadataField = ref(OBJECT_META, 'Standard object metadata.', { default: {} });

/** A `<Kind>List` definition. */
export function listOf(item: string, plural: string): Schema {
  return struct(
    `A list of ${plural}.`,
    {
      apiVersion: apiVersionField,
      items: arrayOf(ref(item, undefined, { default: {} }), `The ${plural}.`),
      kind: kindField,
      metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
    },
    { required: ['items'] },
  );
}

const strings = (description: string): Schema => atomicList({ type: 'string' }, description);

const ruleFields: Record<string, Schema> = {
  apiGroups: strings('API groups the resources belong to; "*" is all groups.'),
  apiVersions: strings('API versions the resources belong to; "*" is all versions.'),
  resources: strings('Resources the rule applies to, "pods/status" for subresources; "*" is all.'),
  scope: str('Cluster, Namespaced or "*" (the default).'),
};

const operations = strings('CREATE, UPDATE, DELETE, CONNECT or "*".');

/** Fields both webhook kinds have (MutatingWebhook adds reinvocationPolicy). */
const webhookFields: Record<string, Schema> = {
  admissionReviewVersions: strings('AdmissionReview versions the webhook accepts, preferred first.'),
  clientConfig: ref(CLIENT_CONFIG, 'How to reach the webhook.', { default: {} }),
  failurePolicy: str('Ignore or Fail (the default) when the call fails.'),
  matchConditions: mapList(
    ref(MATCH_CONDITION, undefined, { default: {} }),
    'name',
    'CEL conditions a request must meet to be sent.',
  ),
  matchPolicy: str('Exact or Equivalent (the default).'),
  name: str('The fully qualified name of the webhook.'),
  namespaceSelector: ref(LABEL_SELECTOR, 'Selects the namespaces whose objects are sent.'),
  objectSelector: ref(LABEL_SELECTOR, 'Selects the objects sent by their labels.'),
  rules: atomicList(ref(RULE_WITH_OPERATIONS, undefined, { default: {} }), 'What the webhook is called for.'),
  sideEffects: str('None or NoneOnDryRun.'),
  timeoutSeconds: int32('Seconds to wait for the webhook, 1 to 30 (default 10).'),
};
const webhookGoTypes = {
  failurePolicy: 'v1.FailurePolicyType',
  matchPolicy: 'v1.MatchPolicyType',
  sideEffects: 'v1.SideEffectClass',
};
const webhookRequired = ['name', 'clientConfig', 'sideEffects', 'admissionReviewVersions'];

export const webhookModule: APIModule = {
  definitions: {
    [RULE]: struct('Resources and versions a rule matches.', ruleFields),
    [RULE_WITH_OPERATIONS]: struct('Operations and the resources they apply to.', {
      ...ruleFields,
      operations,
    }),
    [MATCH_CONDITION]: struct(
      'A CEL condition a request must meet.',
      {
        expression: str('A CEL expression evaluating to a bool.'),
        name: str('The identifier of the condition.'),
      },
      { required: ['name', 'expression'] },
    ),
    [SERVICE_REFERENCE]: struct(
      'A service in the cluster serving the webhook.',
      {
        name: str('The name of the service.'),
        namespace: str('The namespace of the service.'),
        path: str('The URL path requests are sent to.'),
        port: int32('The port of the service (default 443).'),
      },
      { required: ['namespace', 'name'] },
    ),
    [CLIENT_CONFIG]: struct('How the server reaches a webhook.', {
      caBundle: bytes('PEM certificates to verify the webhook server with.'),
      service: ref(SERVICE_REFERENCE, 'A service in the cluster.'),
      url: str('An https URL, for webhooks outside the cluster.'),
    }),
    [VALIDATING_WEBHOOK]: struct('A validating admission webhook.', webhookFields, {
      required: webhookRequired,
    }),
    [MUTATING_WEBHOOK]: struct(
      'A mutating admission webhook.',
      { ...webhookFields, reinvocationPolicy: str('Never (the default) or IfNeeded.') },
      { required: webhookRequired },
    ),
    [admissionDef('ValidatingWebhookConfiguration')]: struct('Validating admission webhooks.', {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: metadataField,
      webhooks: mapList(ref(VALIDATING_WEBHOOK, undefined, { default: {} }), 'name', 'The webhooks.'),
    }),
    [admissionDef('MutatingWebhookConfiguration')]: struct('Mutating admission webhooks.', {
      apiVersion: apiVersionField,
      kind: kindField,
      metadata: metadataField,
      webhooks: mapList(ref(MUTATING_WEBHOOK, undefined, { default: {} }), 'name', 'The webhooks.'),
    }),
    [admissionDef('ValidatingWebhookConfigurationList')]: listOf(
      admissionDef('ValidatingWebhookConfiguration'),
      'ValidatingWebhookConfigurations',
    ),
    [admissionDef('MutatingWebhookConfigurationList')]: listOf(
      admissionDef('MutatingWebhookConfiguration'),
      'MutatingWebhookConfigurations',
    ),
  },
  kinds: ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'].flatMap((k) => [
    groupKind(admissionregistrationV1, k, admissionDef(k)),
    groupKind(admissionregistrationV1, `${k}List`, admissionDef(`${k}List`)),
  ]),
  goTypes: {
    [RULE]: { scope: 'v1.ScopeType' },
    [RULE_WITH_OPERATIONS]: { scope: 'v1.ScopeType', operations: '[]v1.OperationType' },
    [VALIDATING_WEBHOOK]: webhookGoTypes,
    [MUTATING_WEBHOOK]: { ...webhookGoTypes, reinvocationPolicy: 'v1.ReinvocationPolicyType' },
  },
  protobuf: {
    [RULE]: { apiGroups: 1, apiVersions: 2, resources: 3, scope: pointer(4) },
    [RULE_WITH_OPERATIONS]: { operations: 1, Rule: { field: 2, inline: RULE } },
    [MATCH_CONDITION]: { name: 1, expression: 2 },
    [SERVICE_REFERENCE]: { namespace: 1, name: 2, path: pointer(3), port: pointer(4) },
    [CLIENT_CONFIG]: { url: pointer(3), service: pointer(1), caBundle: 2 },
    [VALIDATING_WEBHOOK]: {
      name: 1,
      clientConfig: 2,
      rules: 3,
      failurePolicy: pointer(4),
      matchPolicy: pointer(9),
      namespaceSelector: pointer(5),
      objectSelector: pointer(10),
      sideEffects: pointer(6),
      timeoutSeconds: pointer(7),
      admissionReviewVersions: 8,
      matchConditions: 11,
    },
    [MUTATING_WEBHOOK]: {
      name: 1,
      clientConfig: 2,
      rules: 3,
      failurePolicy: pointer(4),
      matchPolicy: pointer(9),
      namespaceSelector: pointer(5),
      objectSelector: pointer(11),
      sideEffects: pointer(6),
      timeoutSeconds: pointer(7),
      admissionReviewVersions: 8,
      reinvocationPolicy: pointer(10),
      matchConditions: 12,
    },
    [admissionDef('ValidatingWebhookConfiguration')]: { metadata: 1, webhooks: 2 },
    [admissionDef('MutatingWebhookConfiguration')]: { metadata: 1, webhooks: 2 },
    [admissionDef('ValidatingWebhookConfigurationList')]: { metadata: 1, items: 2 },
    [admissionDef('MutatingWebhookConfigurationList')]: { metadata: 1, items: 2 },
  },
};

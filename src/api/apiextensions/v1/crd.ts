// apiextensions.k8s.io/v1 CustomResourceDefinition (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/
// v1/types.go). JSONSchemaProps travels in protobuf with JSON-in-bytes fields; no protobuf tables
// are given, so CRDs are accepted as JSON and YAML only.
import type { KubeObject, ListMeta, ObjectMeta } from '../../meta.js';
import { LIST_META } from '../../meta/v1/list-meta.js';
import { OBJECT_META, TIME } from '../../meta/v1/object-meta.js';
import { groupKind, type APIModule } from '../../schema/api-module.js';
import { arrayOf, atomicList, bool, bytes, int32, mapList, ref, str, struct } from '../../schema/builders.js';
import type { Schema } from '../../schema/types.js';
import { apiextensionsDef, JSON_SCHEMA_PROPS, type JSONSchemaProps } from './json-schema-props.js';

export const apiextensionsGroup = 'apiextensions.k8s.io';
export const apiextensionsV1 = { group: apiextensionsGroup, version: 'v1' } as const;

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: { jsonPath: string }[];
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

export interface CustomResourceConversion {
  strategy: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions: string[] };
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

export interface CustomResourceDefinitionCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: CustomResourceDefinitionNames;
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  metadata?: ObjectMeta;
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

export interface CustomResourceDefinitionList extends KubeObject {
  metadata?: ListMeta;
  items: CustomResourceDefinition[];
}

const CRD = apiextensionsDef('CustomResourceDefinition');
const CRD_LIST = apiextensionsDef('CustomResourceDefinitionList');
const SPEC = apiextensionsDef('CustomResourceDefinitionSpec');
const STATUS = apiextensionsDef('CustomResourceDefinitionStatus');
const NAMES = apiextensionsDef('CustomResourceDefinitionNames');
const VERSION = apiextensionsDef('CustomResourceDefinitionVersion');
const CONDITION = apiextensionsDef('CustomResourceDefinitionCondition');
const COLUMN = apiextensionsDef('CustomResourceColumnDefinition');
const CONVERSION = apiextensionsDef('CustomResourceConversion');
const WEBHOOK_CONVERSION = apiextensionsDef('WebhookConversion');
const CLIENT_CONFIG = apiextensionsDef('WebhookClientConfig');
const SERVICE_REFERENCE = apiextensionsDef('ServiceReference');
const VALIDATION = apiextensionsDef('CustomResourceValidation');
const SUBRESOURCES = apiextensionsDef('CustomResourceSubresources');
const SUBRESOURCE_STATUS = apiextensionsDef('CustomResourceSubresourceStatus');
const SUBRESOURCE_SCALE = apiextensionsDef('CustomResourceSubresourceScale');
const SELECTABLE_FIELD = apiextensionsDef('SelectableField');

const apiVersion = str('Versioned schema of this representation.');
const kind = str('REST resource this object represents.');
const strings = (description: string): Schema => atomicList({ type: 'string' }, description);

export const crdModule: APIModule = {
  definitions: {
    [NAMES]: struct(
      'The names a custom resource is served under.',
      {
        categories: strings('Groups of resources it belongs to, as `all`.'),
        kind: str('The kind, in CamelCase.'),
        listKind: str('The kind of its lists (default <kind>List).'),
        plural: str('The plural resource name, lowercase.'),
        shortNames: strings('Short names kubectl accepts.'),
        singular: str('The singular name, lowercase (default: the lowercase kind).'),
      },
      { required: ['plural', 'kind'] },
    ),
    [COLUMN]: struct(
      'A column kubectl get prints.',
      {
        description: str('What the column shows.'),
        format: str('The format of the values.'),
        jsonPath: str('A simple JSON path evaluated on each object.'),
        name: str('The column header.'),
        priority: int32('0 for the default view, more for -o wide.'),
        type: str('integer, number, string, boolean or date.'),
      },
      { required: ['name', 'type', 'jsonPath'] },
    ),
    [VALIDATION]: struct('How custom resources are validated.', {
      openAPIV3Schema: ref(JSON_SCHEMA_PROPS, 'The OpenAPI v3 schema for validation and pruning.'),
    }),
    [SUBRESOURCE_STATUS]: struct('The status subresource: no fields.', {}),
    [SUBRESOURCE_SCALE]: struct(
      'The scale subresource.',
      {
        labelSelectorPath: str('The JSON path of the serialized label selector.'),
        specReplicasPath: str('The JSON path of the desired replicas under .spec.'),
        statusReplicasPath: str('The JSON path of the observed replicas under .status.'),
      },
      { required: ['specReplicasPath', 'statusReplicasPath'] },
    ),
    [SUBRESOURCES]: struct('The subresources served for custom resources.', {
      scale: ref(SUBRESOURCE_SCALE, 'The scale subresource.'),
      status: ref(SUBRESOURCE_STATUS, 'The status subresource.'),
    }),
    [SELECTABLE_FIELD]: struct(
      'A field usable in field selectors.',
      { jsonPath: str('A simple JSON path to the field.') },
      { required: ['jsonPath'] },
    ),
    [VERSION]: struct(
      'One version of a custom resource.',
      {
        additionalPrinterColumns: atomicList(
          ref(COLUMN, undefined, { default: {} }),
          'Columns kubectl get prints.',
        ),
        deprecated: bool('The version is deprecated.'),
        deprecationWarning: str('The warning returned to clients of a deprecated version.'),
        name: str('The version name, as v1 or v2beta1.'),
        schema: ref(VALIDATION, 'The schema of this version.'),
        selectableFields: atomicList(ref(SELECTABLE_FIELD, undefined, { default: {} }), 'Selectable fields.'),
        served: bool('The version is served by the REST API.'),
        storage: bool('The version objects are stored in; exactly one has it.'),
        subresources: ref(SUBRESOURCES, 'The subresources of this version.'),
      },
      { required: ['name', 'served', 'storage'] },
    ),
    [SERVICE_REFERENCE]: struct(
      'A service serving a conversion webhook.',
      {
        name: str('The service name.'),
        namespace: str('The service namespace.'),
        path: str('The URL path.'),
        port: int32('The port (default 443).'),
      },
      { required: ['namespace', 'name'] },
    ),
    [CLIENT_CONFIG]: struct('How to reach a conversion webhook.', {
      caBundle: bytes('PEM certificates to verify the webhook with.'),
      service: ref(SERVICE_REFERENCE, 'A service in the cluster.'),
      url: str('An https URL.'),
    }),
    [WEBHOOK_CONVERSION]: struct(
      'A conversion webhook.',
      {
        clientConfig: ref(CLIENT_CONFIG, 'How to reach the webhook.'),
        conversionReviewVersions: strings('ConversionReview versions the webhook accepts.'),
      },
      { required: ['conversionReviewVersions'] },
    ),
    [CONVERSION]: struct(
      'How versions of custom resources are converted.',
      {
        strategy: str('None (only apiVersion changes) or Webhook.'),
        webhook: ref(WEBHOOK_CONVERSION, 'The webhook, for the Webhook strategy.'),
      },
      { required: ['strategy'] },
    ),
    [SPEC]: struct(
      'The custom resource a definition adds.',
      {
        conversion: ref(CONVERSION, 'How versions are converted.'),
        group: str('The API group, a DNS subdomain with at least one dot.'),
        names: ref(NAMES, 'The resource and kind names.', { default: {} }),
        preserveUnknownFields: bool('Deprecated; must be false in v1.'),
        scope: str('Cluster or Namespaced.'),
        versions: atomicList(ref(VERSION, undefined, { default: {} }), 'The versions served and stored.'),
      },
      { required: ['group', 'names', 'scope', 'versions'] },
    ),
    [CONDITION]: struct(
      'A condition of a CustomResourceDefinition.',
      {
        lastTransitionTime: ref(TIME, 'When the status last changed.'),
        message: str('A human-readable message.'),
        reason: str('A CamelCase reason.'),
        status: str('True, False or Unknown.'),
        type: str('Established, NamesAccepted, Terminating, …'),
      },
      { required: ['type', 'status'] },
    ),
    [STATUS]: struct('What the server observed of a definition.', {
      acceptedNames: ref(NAMES, 'The names actually served.', { default: {} }),
      conditions: mapList(ref(CONDITION, undefined, { default: {} }), 'type', 'The latest observations.'),
      storedVersions: strings('Every version objects were ever stored in.'),
    }),
    [CRD]: struct(
      'Adds a custom resource to the API.',
      {
        apiVersion,
        kind,
        metadata: ref(OBJECT_META, 'Standard object metadata.', { default: {} }),
        spec: ref(SPEC, 'The desired resource.', { default: {} }),
        status: ref(STATUS, 'The observed state.', { default: {} }),
      },
      { required: ['spec'] },
    ),
    [CRD_LIST]: struct(
      'A list of CustomResourceDefinitions.',
      {
        apiVersion,
        items: arrayOf(ref(CRD, undefined, { default: {} }), 'The CustomResourceDefinitions.'),
        kind,
        metadata: ref(LIST_META, 'Standard list metadata.', { default: {} }),
      },
      { required: ['items'] },
    ),
  },
  kinds: [
    groupKind(apiextensionsV1, 'CustomResourceDefinition', CRD),
    groupKind(apiextensionsV1, 'CustomResourceDefinitionList', CRD_LIST),
  ],
  goTypes: {
    [SPEC]: { scope: 'v1.ResourceScope' },
    [CONVERSION]: { strategy: 'v1.ConversionStrategyType' },
    [CONDITION]: { type: 'v1.CustomResourceDefinitionConditionType', status: 'v1.ConditionStatus' },
  },
};

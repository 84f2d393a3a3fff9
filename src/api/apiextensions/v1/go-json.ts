// The member order kube-apiserver writes apiextensions.k8s.io/v1 in. The group has no protobuf tables
// here (CRDs are accepted as JSON and YAML only), so the Go field order of its structs is given on
// its own: k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 types.go and types_jsonschema.go
// as of kube 1.33. JSONSchemaPropsOrBool/OrArray/OrStringArray marshal as the schema they hold (or
// a bool, a list); JSON values are decoded into interface{} on the way to storage and back, so
// their maps come out with keys sorted.
import type { APIModule } from '../../schema/api-module.js';
import type { GoJSONShapes } from '../../schema/go-json-shape.js';
import { apiextensionsDef as def, JSON_SCHEMA_PROPS } from './json-schema-props.js';

const shapes: GoJSONShapes = {
  [def('CustomResourceDefinition')]: { fields: ['metadata', 'spec', 'status'] },
  [def('CustomResourceDefinitionList')]: { fields: ['metadata', 'items'] },
  [def('CustomResourceDefinitionSpec')]: {
    fields: ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'],
  },
  [def('CustomResourceConversion')]: { fields: ['strategy', 'webhook'] },
  [def('WebhookConversion')]: { fields: ['clientConfig', 'conversionReviewVersions'] },
  [def('WebhookClientConfig')]: { fields: ['url', 'service', 'caBundle'] },
  [def('ServiceReference')]: { fields: ['namespace', 'name', 'path', 'port'] },
  [def('CustomResourceDefinitionVersion')]: {
    fields: [
      'name',
      'served',
      'storage',
      'deprecated',
      'deprecationWarning',
      'schema',
      'subresources',
      'additionalPrinterColumns',
      'selectableFields',
    ],
  },
  [def('SelectableField')]: { fields: ['jsonPath'] },
  [def('CustomResourceColumnDefinition')]: {
    fields: ['name', 'type', 'format', 'description', 'priority', 'jsonPath'],
  },
  [def('CustomResourceDefinitionNames')]: {
    fields: ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories'],
  },
  [def('CustomResourceDefinitionCondition')]: {
    fields: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
  },
  [def('CustomResourceDefinitionStatus')]: { fields: ['conditions', 'acceptedNames', 'storedVersions'] },
  [def('CustomResourceValidation')]: { fields: ['openAPIV3Schema'] },
  [def('CustomResourceSubresources')]: { fields: ['status', 'scale'] },
  [def('CustomResourceSubresourceStatus')]: { fields: [] },
  [def('CustomResourceSubresourceScale')]: {
    fields: ['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath'],
  },
  [JSON_SCHEMA_PROPS]: {
    fields: [
      'id',
      '$schema',
      '$ref',
      'description',
      'type',
      'format',
      'title',
      'default',
      'maximum',
      'exclusiveMaximum',
      'minimum',
      'exclusiveMinimum',
      'maxLength',
      'minLength',
      'pattern',
      'maxItems',
      'minItems',
      'uniqueItems',
      'multipleOf',
      'enum',
      'maxProperties',
      'minProperties',
      'required',
      'items',
      'allOf',
      'oneOf',
      'anyOf',
      'not',
      'properties',
      'additionalProperties',
      'patternProperties',
      'dependencies',
      'additionalItems',
      'definitions',
      'externalDocs',
      'example',
      'nullable',
      'x-kubernetes-preserve-unknown-fields',
      'x-kubernetes-embedded-resource',
      'x-kubernetes-int-or-string',
      'x-kubernetes-list-map-keys',
      'x-kubernetes-list-type',
      'x-kubernetes-map-type',
      'x-kubernetes-validations',
    ],
  },
  [def('ValidationRule')]: {
    fields: ['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'],
  },
  [def('ExternalDocumentation')]: { fields: ['description', 'url'] },
  [def('JSONSchemaPropsOrBool')]: { structOrList: JSON_SCHEMA_PROPS },
  [def('JSONSchemaPropsOrArray')]: { structOrList: JSON_SCHEMA_PROPS },
  [def('JSONSchemaPropsOrStringArray')]: { structOrList: JSON_SCHEMA_PROPS },
  [def('JSON')]: 'unstructured',
};

export const apiextensionsGoJSONModule: APIModule = { definitions: {}, goJSON: shapes };

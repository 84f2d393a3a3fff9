// apiextensions.k8s.io/v1: CustomResourceDefinitions and the schema type they embed.
import type { APIModule } from '../../schema/api-module.js';
import { crdModule } from './crd.js';
import { apiextensionsGoJSONModule } from './go-json.js';
import { jsonSchemaPropsModule } from './json-schema-props.js';

export const apiextensionsV1Modules: readonly APIModule[] = [
  jsonSchemaPropsModule,
  crdModule,
  apiextensionsGoJSONModule,
];

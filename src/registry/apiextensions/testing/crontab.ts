// CRD fixtures of the apiextensions registry's tests: a CronTab definition and kube's Invalid status.
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';
import { testContext } from '../../generic/testing/widgets.js';

export const ctx = testContext('');
const apiVersion = 'apiextensions.k8s.io/v1';

export const cronTabSchema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string' },
        image: { type: 'string' },
        replicas: { type: 'integer' },
      },
    },
  },
});

export function cronTab(
  extra: Partial<CustomResourceDefinition['spec']> = {},
  name = 'crontabs.stable.example.com',
): CustomResourceDefinition {
  return {
    apiVersion,
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: cronTabSchema() } }],
      ...extra,
    },
  };
}

export const invalid = (
  name: string,
  causes: string[],
): { code: number; reason: string; message: string } => ({
  code: 422,
  reason: 'Invalid',
  message:
    `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ` +
    (causes.length === 1 ? (causes[0] ?? '') : `[${causes.join(', ')}]`),
});

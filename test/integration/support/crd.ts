// A CustomResourceDefinition for integration tests: namespaced, one version v1 served and stored,
// whose objects' `spec` has the schema given (what the tests vary).
export interface CRDNames {
  readonly plural: string;
  readonly kind: string;
  readonly singular?: string;
  readonly listKind?: string;
}

/** A namespaced CustomResourceDefinition of the group with these names and versions, as given. */
export function namespacedCRDOf(group: string, names: CRDNames, versions: readonly unknown[]): unknown {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions },
  };
}

export function namespacedCRD(group: string, names: CRDNames, spec: Record<string, unknown>): unknown {
  return namespacedCRDOf(group, names, [
    {
      name: 'v1',
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec } } },
    },
  ]);
}

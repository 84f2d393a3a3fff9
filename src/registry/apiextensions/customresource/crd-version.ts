// What serving one CustomResourceDefinition needs from it: its served versions in kube's priority
// order, the storage version, and each version's schema, subresources and printer columns.
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
} from '../../../api/apiextensions/v1/crd.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/json-schema-props.js';

const kubeVersion = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const stability = { alpha: 0, beta: 1, ga: 2 } as const;

/**
 * version.CompareKubeAwareVersionStrings as a sort comparator: GA before beta before alpha, higher
 * numbers first, then versions not shaped like `v1beta2` in lexical order.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = kubeVersion.exec(a);
  const mb = kubeVersion.exec(b);
  if (ma === null || mb === null) {
    if (ma !== null) return -1;
    if (mb !== null) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const level = (m: RegExpExecArray): number => stability[(m[2] as 'alpha' | 'beta' | undefined) ?? 'ga'];
  if (level(ma) !== level(mb)) return level(mb) - level(ma);
  if (ma[1] !== mb[1]) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** The served versions, most preferred first. */
export function servedVersions(crd: CustomResourceDefinition): CustomResourceDefinitionVersion[] {
  return crd.spec.versions.filter((v) => v.served).sort((a, b) => compareKubeAwareVersions(a.name, b.name));
}

export function storageVersionOf(crd: CustomResourceDefinition): string {
  return crd.spec.versions.find((v) => v.storage)?.name ?? crd.spec.versions[0]?.name ?? '';
}

function versionNamed(
  crd: CustomResourceDefinition,
  version: string,
): CustomResourceDefinitionVersion | undefined {
  return crd.spec.versions.find((v) => v.name === version);
}

/** The version's openAPIV3Schema; a CRD that gives none preserves every field. */
export function schemaOf(crd: CustomResourceDefinition, version: string): JSONSchemaProps {
  return (
    versionNamed(crd, version)?.schema?.openAPIV3Schema ?? {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    }
  );
}

export function subresourcesOf(crd: CustomResourceDefinition, version: string): CustomResourceSubresources {
  return versionNamed(crd, version)?.subresources ?? {};
}

export function columnsOf(crd: CustomResourceDefinition, version: string): CustomResourceColumnDefinition[] {
  return versionNamed(crd, version)?.additionalPrinterColumns ?? [];
}

export function selectableFieldsOf(crd: CustomResourceDefinition, version: string): { jsonPath: string }[] {
  return versionNamed(crd, version)?.selectableFields ?? [];
}

export const isNamespaced = (crd: CustomResourceDefinition): boolean => crd.spec.scope === 'Namespaced';

/** Established=True: kube serves a CRD's resources only from then on. */
export function isEstablished(crd: CustomResourceDefinition): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
}

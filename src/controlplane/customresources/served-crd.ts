// What the routes make of a CRD: the names it is served under, the group versions it defines, and
// its paths while it is being deleted.
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import { refusingCreates } from '../../registry/apiextensions/customresource/terminating.js';
import { sameNames } from '../../registry/apiextensions/naming.js';
import type { Storage } from '../../registry/rest/capabilities.js';

/** The paths of a terminating CRD's version: creates refused on the main resource. */
export function refusingCreatesIn(
  paths: Readonly<Record<string, Storage>>,
  crd: CustomResourceDefinition,
): Record<string, Storage> {
  const resource = { group: crd.spec.group, resource: crd.spec.names.plural };
  return Object.fromEntries(
    Object.entries(paths).map(([path, storage]) => [
      path,
      path.includes('/') ? storage : refusingCreates(storage, resource),
    ]),
  );
}

/** The CRD with its accepted names as its names, when it has accepted other ones than it asks for. */
export function withAcceptedNames(crd: CustomResourceDefinition): CustomResourceDefinition {
  const accepted = crd.status?.acceptedNames;
  if (accepted === undefined || accepted.plural === '' || accepted.kind === '') return crd;
  if (sameNames(accepted, crd.spec.names)) return crd;
  return { ...crd, spec: { ...crd.spec, names: accepted } };
}

/** The group versions a CRD serves, as one text to compare. */
export function servedGroupVersions(crd: CustomResourceDefinition | undefined): string {
  if (crd === undefined) return '';
  const versions = crd.spec.versions.filter((v) => v.served).map((v) => v.name);
  return `${crd.spec.group}/${versions.join(',')}`;
}

// The warning a deprecated version of a custom resource sends with every request to it
// (apiextensions-apiserver's crdHandler: the version's deprecationWarning, else
// defaultDeprecationWarning: `<group>/<version> <Kind> is deprecated`, and the newest served version
// above it that is not deprecated, if any, as the one to use).
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import { compareKubeAwareVersions } from '../../registry/apiextensions/customresource/crd-version.js';

/** version → the warning, for each served deprecated version of `crd`. */
export function crdDeprecationWarnings(crd: CustomResourceDefinition): Map<string, string> {
  const { group, names, versions } = crd.spec;
  const out = new Map<string, string>();
  for (const v of versions) {
    if (!v.served || v.deprecated !== true) continue;
    if (v.deprecationWarning !== undefined) {
      out.set(v.name, v.deprecationWarning);
      continue;
    }
    // compareKubeAwareVersions orders the preferred (newer) version first.
    const newer = versions
      .filter((o) => o.served && o.deprecated !== true && compareKubeAwareVersions(o.name, v.name) < 0)
      .map((o) => o.name)
      .sort(compareKubeAwareVersions);
    const use = newer[0] === undefined ? '' : `; use ${group}/${newer[0]} ${names.kind}`;
    out.set(v.name, `${group}/${v.name} ${names.kind} is deprecated${use}`);
  }
  return out;
}

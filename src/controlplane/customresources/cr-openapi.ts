// The custom resources as the OpenAPI service sees them: the groups the route table serves and the
// definitions of every served version of every served CRD, remade when the served CRDs change
// (kube's openapi and openapiv3 controllers of apiextensions-apiserver).
import type { CustomResourceDefinition } from '../../api/apiextensions/v1/crd.js';
import type { Definitions, Schema } from '../../api/schema/types.js';
import type { OpenAPIDynamicSource, OpenAPIVersion } from '../../endpoints/openapi/index.js';
import type { APIGroupInfo } from '../../registry/rest/api-group-info.js';
import { customResourceDefinitions } from './cr-openapi-schema.js';

/** What the source reads: the served groups and the CRDs they come from, changing together. */
export interface ServedCustomResources {
  readonly groups: readonly APIGroupInfo[];
  readonly crds: readonly CustomResourceDefinition[];
}

function definitionsOf(crds: readonly CustomResourceDefinition[], v2: boolean): Definitions {
  const out: Record<string, Schema> = {};
  for (const crd of crds)
    for (const v of crd.spec.versions)
      if (v.served) Object.assign(out, customResourceDefinitions(crd, { version: v.name, v2 }));
  return Object.freeze(out);
}

export function customResourceOpenAPI(served: ServedCustomResources): OpenAPIDynamicSource {
  let built: { groups: readonly APIGroupInfo[]; defs: Partial<Record<OpenAPIVersion, Definitions>> } = {
    groups: [],
    defs: {},
  };
  return {
    groups: () => served.groups,
    definitions: (version) => {
      if (built.groups !== served.groups) built = { groups: served.groups, defs: {} };
      return (built.defs[version] ??= definitionsOf(served.crds, version === 'v2'));
    },
  };
}

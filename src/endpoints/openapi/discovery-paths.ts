// The discovery endpoints as OpenAPI paths: /api/, /api/v1/, /apis/, /apis/<group>/, /apis/<group>/<version>/.
import { metaV1 } from '../../api/schema/api-module.js';
import { groupVersionID, groupVersionTag, toValidOperationID } from './operation-ids.js';
import type { OperationSpec, PathSpec, ResponseSpec } from './operation-spec.js';
import { objectMediaTypes } from './operation-spec.js';

const get = (o: { operationId: string; description: string; tag: string; def: string }): OperationSpec => {
  const responses: ResponseSpec[] = [
    { code: '200', description: 'OK', schemaRef: metaV1(o.def) },
    { code: '401', description: 'Unauthorized' },
  ];
  return {
    method: 'get',
    operationId: o.operationId,
    description: o.description,
    tag: o.tag,
    params: [],
    consumes: objectMediaTypes,
    produces: objectMediaTypes,
    responses,
  };
};

const single = (path: string, document: string, operation: OperationSpec): PathSpec => ({
  path,
  document,
  params: [],
  operations: [operation],
});

/** Paths of the discovery documents for the served group/versions. */
export function discoveryPaths(groupVersions: readonly { group: string; version: string }[]): PathSpec[] {
  const paths: PathSpec[] = [];
  const groups = new Set<string>();
  for (const { group, version } of groupVersions) {
    const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    paths.push(
      single(
        `${prefix}/`,
        prefix.slice(1),
        get({
          operationId: `get${groupVersionID(group, version)}APIResources`,
          description: 'Lists the resources of this group/version.',
          tag: groupVersionTag(group, version),
          def: 'APIResourceList',
        }),
      ),
    );
    groups.add(group);
  }
  if (groups.has('')) {
    paths.push(
      single(
        '/api/',
        'api',
        get({
          operationId: 'getCoreAPIVersions',
          description: 'Lists the versions of the core API.',
          tag: 'core',
          def: 'APIVersions',
        }),
      ),
    );
  }
  const named = [...groups].filter((g) => g !== '');
  paths.push(
    single(
      '/apis/',
      'apis',
      get({
        operationId: 'getAPIVersions',
        description: 'Lists the API groups.',
        tag: 'apis',
        def: 'APIGroupList',
      }),
    ),
  );
  for (const group of named) {
    const name = toValidOperationID(group.endsWith('.k8s.io') ? group.slice(0, -7) : group, true);
    paths.push(
      single(
        `/apis/${group}/`,
        `apis/${group}`,
        get({
          operationId: `get${name}APIGroup`,
          description: 'Describes the group and its versions.',
          tag: toValidOperationID(group.endsWith('.k8s.io') ? group.slice(0, -7) : group, false),
          def: 'APIGroup',
        }),
      ),
    );
  }
  return paths;
}

// Every built-in group version whose kinds the server knows, with the API modules that define them.
// Adding a group version: write its modules under src/api/<group>/<version>/, export them as a list
// from that folder's index.ts and add an entry here. The scheme gets the group version's kinds, and
// WatchEvent and DeleteOptions under it, as kube's AddToGroupVersion does.
import type { APIModule } from './schema/api-module.js';
import { authenticationV1Modules } from './authentication/v1/index.js';
import { coreV1Modules } from './core/v1/index.js';

export interface BuiltinGroupVersion {
  readonly group: string;
  readonly version: string;
  readonly modules: readonly APIModule[];
}

export const builtinGroupVersions: readonly BuiltinGroupVersion[] = [
  { group: '', version: 'v1', modules: coreV1Modules },
  { group: 'authentication.k8s.io', version: 'v1', modules: authenticationV1Modules },
];

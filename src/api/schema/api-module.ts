// What one API file contributes to a Scheme: named schemas, the kinds served with them, and
// the Go type names kube's decoder quotes in its errors where the schema alone cannot tell.
import type { GoJSONShapes } from './go-json-shape.js';
import type { GoOmitEmptyTables } from './go-omit-empty.js';
import type { ProtobufTables } from './protobuf.js';
import type { Definitions, KindInfo } from './types.js';

/** definition name → JSON field → Go type (`v1.SecretType`, `[]v1.FinalizerName`). */
export type GoTypeOverrides = Readonly<Record<string, Readonly<Record<string, string>>>>;

export interface APIModule {
  readonly definitions: Definitions;
  readonly kinds?: readonly KindInfo[];
  readonly goTypes?: GoTypeOverrides;
  /** How the definitions travel as kube protobuf; definitions without an entry have none. */
  readonly protobuf?: ProtobufTables;
  /** Go's member order of definitions without a protobuf table (which gives it for the others). */
  readonly goJSON?: GoJSONShapes;
  /** Which members Go leaves out when empty (omitempty), per struct definition. */
  readonly goOmitEmpty?: GoOmitEmptyTables;
}

/** Definition names as kube's OpenAPI spells them. */
export const metaV1 = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;
export const coreV1 = (name: string): string => `io.k8s.api.core.v1.${name}`;
export const runtimeDef = (name: string): string => `io.k8s.apimachinery.pkg.runtime.${name}`;
export const intstrDef = (name: string): string => `io.k8s.apimachinery.pkg.util.intstr.${name}`;
export const resourceDef = (name: string): string => `io.k8s.apimachinery.pkg.api.resource.${name}`;

/**
 * Definition names of a named group's package as kube's OpenAPI spells them:
 * `apiDefinitions('apps', 'v1')('Deployment')` → `io.k8s.api.apps.v1.Deployment`. The package is the
 * Go package name under k8s.io/api (`rbac` for rbac.authorization.k8s.io, `coordination` for
 * coordination.k8s.io).
 */
export const apiDefinitions =
  (pkg: string, version: string) =>
  (name: string): string =>
    `io.k8s.api.${pkg}.${version}.${name}`;

/** A kind of a named group (`/apis/<group>/<version>`) with its definition name. */
export function groupKind(
  gv: { readonly group: string; readonly version: string },
  kind: string,
  definition: string,
): KindInfo {
  return { group: gv.group, version: gv.version, kind, definition };
}

/** A kind of the core group (`/api/v1`). */
export function coreV1Kind(kind: string): KindInfo {
  return { group: '', version: 'v1', kind, definition: coreV1(kind) };
}

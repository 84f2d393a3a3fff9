// What one API file contributes to a Scheme: named schemas, the kinds served with them, and
// the Go type names kube's decoder quotes in its errors where the schema alone cannot tell.
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
}

/** Definition names as kube's OpenAPI spells them. */
export const metaV1 = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;
export const coreV1 = (name: string): string => `io.k8s.api.core.v1.${name}`;
export const runtimeDef = (name: string): string => `io.k8s.apimachinery.pkg.runtime.${name}`;
export const intstrDef = (name: string): string => `io.k8s.apimachinery.pkg.util.intstr.${name}`;
export const resourceDef = (name: string): string => `io.k8s.apimachinery.pkg.api.resource.${name}`;

/** A kind of the core group (`/api/v1`). */
export function coreV1Kind(kind: string): KindInfo {
  return { group: '', version: 'v1', kind, definition: coreV1(kind) };
}

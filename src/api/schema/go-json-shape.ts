// How Go's encoding/json writes a definition that has no protobuf table to learn its field order
// from (the tables list fields in Go order: protobuf.ts). kube-apiserver encodes every built-in kind
// from Go structs, so a kind served without protobuf still has a fixed member order at every level;
// these shapes give it, taken from the Go type declarations the definitions name.

/**
 * - `fields`: a struct; its JSON field names in declaration order (an embedded struct's in its place).
 * - `structOrList`: a type with its own MarshalJSON that writes the named struct, a list of it, or a
 *   scalar (apiextensions' JSONSchemaPropsOrBool, OrArray, OrStringArray).
 * - `unstructured`: any JSON value kept as Go's interface{} (apiextensions' JSON): maps, so keys are
 *   sorted at every level.
 */
export type GoJSONShape =
  { readonly fields: readonly string[] } | { readonly structOrList: string } | 'unstructured';

/** Definition name → how Go writes it. */
export type GoJSONShapes = Readonly<Record<string, GoJSONShape>>;

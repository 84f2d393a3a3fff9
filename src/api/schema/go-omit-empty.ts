// Which members Go's encoding/json leaves out of a built-in object: kube-apiserver decodes every
// built-in object into its Go struct and encodes it back, so a field tagged `json:",omitempty"`
// holding its Go zero value is not written. Only the members that can be dropped are listed, with
// the class of their Go type; a struct-typed field (metav1.Time, IntOrString, a nested spec) is
// never empty to Go, so it is kept whatever it holds.

export const goOmitEmptyClasses = [
  /** A non-pointer scalar (string, number, bool, []byte): dropped when "", 0, false or null. */
  'zero',
  /** A slice or map: dropped when [], {} or null. */
  'empty',
  /** A pointer: dropped when null only (a pointer to a zero value is written). */
  'nil',
] as const;
export type GoOmitEmpty = (typeof goOmitEmptyClasses)[number];

/** JSON member name → how it is dropped; members not named are always written. */
export type GoOmitEmptyTable = Readonly<Record<string, GoOmitEmpty>>;

/** Definition name → its table (empty for a struct with nothing to drop). */
export type GoOmitEmptyTables = Readonly<Record<string, GoOmitEmptyTable>>;

/**
 * Whether Go's encoding/json leaves out a member of class `cls` holding `v` (the JSON the member
 * decodes from): null for every class; "", 0 and false for a scalar; [] and {} for a slice or map.
 */
export function goOmits(cls: GoOmitEmpty, v: unknown): boolean {
  if (v === null) return true;
  if (cls === 'zero') return v === '' || v === 0 || v === false;
  if (cls !== 'empty' || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.length === 0;
  for (const _ in v) return false;
  return true;
}

// The JSON text of managedFields entries, with each FieldsV1 object's text kept on the object for
// the next write. A write of an object whose managers' field sets did not change (most updates,
// patches and applies) carries the very FieldsV1 objects of the write before (encodeFieldsV1 gives
// back a decoded set's source), and their text, about half of a Pod's bytes, was already written
// once. Only objects known canonical hold text: those are never changed once made (fields-v1.ts).
import { goJSONText } from '../machinery/json/go-json-text.js';
import { isKnownCanonicalFieldsV1 } from '../machinery/patch/fieldpath/fields-v1.js';
import { keepOn } from './kept-on.js';

const textKey: unique symbol = Symbol('FieldsV1 text');

interface WithText {
  [textKey]?: string;
}

/** The text kept on a FieldsV1 object by an earlier write of it; undefined when none was. */
export function keptFieldsV1Text(fields: object): string | undefined {
  return (fields as WithText)[textKey];
}

/**
 * The text of a known canonical FieldsV1 object, kept on it (not enumerable: spreads, copies and
 * JSON leave it behind) unless the object is frozen.
 */
function fieldsV1Text(fields: object): string {
  const kept = (fields as WithText)[textKey];
  if (kept !== undefined) return kept;
  const text = goJSONText(fields);
  keepOn(fields, textKey, text);
  return text;
}

// Stands for the FieldsV1 member while the rest of an entry is encoded. JSON text has this
// sequence only where it is a member: inside a string its quotes would be escaped.
const placeholder = '"fieldsV1":0';

/** Appends the text of one entry to `out`, in pieces; whether its FieldsV1 is known canonical. */
function entryPieces(entry: unknown, out: string[]): boolean {
  const fields = (entry as { fieldsV1?: unknown } | null)?.fieldsV1;
  if (typeof fields !== 'object' || fields === null || !isKnownCanonicalFieldsV1(fields)) {
    out.push(goJSONText(entry));
    return false;
  }
  const rest = goJSONText({ ...(entry as object), fieldsV1: 0 });
  const at = rest.indexOf(placeholder) + placeholder.length - 1;
  out.push(rest.slice(0, at), fieldsV1Text(fields), rest.slice(at + 1));
  return true;
}

/**
 * Go's JSON of a managedFields array (entries already in member order), as goJSONText writes it,
 * in pieces to be written one after the other (joined, they would be copied once more); and
 * whether every entry's FieldsV1 was known canonical (what the write vouches for).
 */
export function managedFieldsPieces(entries: readonly unknown[]): { pieces: string[]; canonical: boolean } {
  const pieces = ['['];
  let canonical = true;
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) pieces.push(',');
    canonical = entryPieces(entries[i], pieces) && canonical;
  }
  pieces.push(']');
  return { pieces, canonical };
}

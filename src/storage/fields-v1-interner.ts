// One FieldsV1 object for every kept object whose manager owns the same fields. A Pod's
// managedFields hold three quarters of its decoded objects (every owned field is an object, most of
// them empty), and objects written from one template own the same fields: 500 Pods a Deployment
// made, written back by their controllers, hold 500 equal trees of ~250 objects each. The objects
// a server keeps after a write (RecentWrites) are promoted to the old generation, where every
// mark-compact walks them; sharing one frozen tree per text cuts what it walks by half in a Pod
// update load (docs/performance.md, stop 50). Equal trees are found by their text, which the
// storage encoding keeps on each known canonical FieldsV1 object (fields-v1-text.ts) once it wrote
// it, so finding costs a lookup of a string already hashed.
import type { KubeObject, ManagedFieldsEntry } from '../api/meta.js';
import { deepFreeze } from './cacher/freeze.js';
import { keptFieldsV1Text } from './fields-v1-text.js';

/** Bytes counted per tree beside its text: the map entry and its bookkeeping. */
const entryOverhead = 64;

export class FieldsV1Interner {
  readonly #maxBytes: number;
  // Insertion order is recency: a tree found again is moved to the end.
  readonly #byText = new Map<string, Readonly<Record<string, unknown>>>();
  #bytes = 0;

  /** Keeps trees whose texts add up to at most `maxBytes`, the least recently found going first. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get size(): number {
    return this.#byText.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /**
   * `obj` with each managedFields entry's FieldsV1 replaced by the frozen tree kept for its text,
   * and the trees not kept yet frozen and kept. Only trees that carry their text are looked at (a
   * write's, after the storage encoding); their entries are copied into a new managedFields array
   * when one changes, so an array or entry another object shares is left as it is. `obj.metadata`
   * must be the caller's own.
   */
  share<T extends KubeObject>(obj: T): T {
    const entries = obj.metadata?.managedFields;
    if (obj.metadata === undefined || !Array.isArray(entries)) return obj;
    let out: ManagedFieldsEntry[] | undefined;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      // Checked as JSON: an object decoded from elsewhere may hold null or anything else.
      const fields: unknown = entry?.fieldsV1;
      if (entry === undefined || typeof fields !== 'object' || fields === null) continue;
      const kept = this.#intern(fields);
      if (kept === fields) continue;
      out ??= entries.slice();
      out[i] = { ...entry, fieldsV1: kept as Record<string, unknown> };
    }
    if (out !== undefined) obj.metadata.managedFields = out;
    return obj;
  }

  /** The tree kept for the text of `fields`, `fields` itself once kept, or as it is when it has no text. */
  #intern(fields: object): object {
    const text = keptFieldsV1Text(fields);
    if (text === undefined) return fields;
    const found = this.#byText.get(text);
    if (found !== undefined) {
      this.#byText.delete(text);
      this.#byText.set(text, found);
      return found;
    }
    const cost = text.length + entryOverhead;
    if (cost > this.#maxBytes) return fields;
    this.#byText.set(text, deepFreeze(fields as Record<string, unknown>));
    this.#bytes += cost;
    for (const [oldest] of this.#byText) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#byText.delete(oldest);
      this.#bytes -= oldest.length + entryOverhead;
    }
    return fields;
  }
}

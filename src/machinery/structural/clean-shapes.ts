// Bodies whose walk only fills in defaults, remembered by their shape (machinery/json/shapes.ts).
// The walk of a kind's body checks types and member names, drops unknown members and nulls, and
// adds the schema's defaults where members are missing: for a body whose shape was walked before
// without a word to say or anything to drop, what it adds, and where, depends on the shape alone
// (which members are present, not the values the shape masks, which the walk checks only for being
// strings). Controllers create many bodies of one shape; those get the defaults put in as the first
// one's walk put them, without walking again. Only JSON bodies that carry their text are looked up:
// the text's keys are counted for repeats as before (a body with repeats is never one of these).
import { deepCopyJSON } from '../json/deep-copy.js';
import { ShapeMemo } from '../json/shapes.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A member the walk added: the object it went into (by path from the body), its name and value. */
interface Insert {
  readonly path: readonly (string | number)[];
  readonly key: string;
  readonly value: unknown;
}

/** A shape's walk: the keys its text holds, and the members the walk added to it. */
export interface CleanShape {
  readonly keys: number;
  readonly inserts: readonly Insert[];
}

/**
 * The members `after` has that `before` lacks, at every depth, in the order `after` holds them;
 * undefined when anything else differs (a member dropped or changed, a list of another length).
 */
function insertions(before: unknown, after: unknown): Insert[] | undefined {
  const out: Insert[] = [];
  const path: (string | number)[] = [];
  const visit = (b: unknown, a: unknown): boolean => {
    if (b === a) return true;
    if (Array.isArray(b)) {
      if (!Array.isArray(a) || a.length !== b.length) return false;
      for (let i = 0; i < b.length; i++) {
        path.push(i);
        const same = visit(b[i], a[i]);
        path.pop();
        if (!same) return false;
      }
      return true;
    }
    if (!isObject(b) || !isObject(a)) return false;
    let shared = 0;
    for (const key in a) {
      const value = a[key];
      if (value === undefined) return false;
      if (!Object.hasOwn(b, key)) {
        out.push({ path: [...path], key, value: deepCopyJSON(value) });
        continue;
      }
      shared++;
      path.push(key);
      const same = visit(b[key], value);
      path.pop();
      if (!same) return false;
    }
    return shared === Object.keys(b).length;
  };
  return visit(before, after) ? out : undefined;
}

/** Puts the inserts into `body`; false (and nothing put) when one's place is not an object lacking it. */
function replay(body: JSONObject, inserts: readonly Insert[]): boolean {
  const targets: JSONObject[] = [];
  for (const insert of inserts) {
    let at: unknown = body;
    for (const segment of insert.path)
      at = isObject(at) || Array.isArray(at) ? (at as JSONObject)[segment] : undefined;
    if (!isObject(at) || at[insert.key] !== undefined) return false;
    targets.push(at);
  }
  inserts.forEach((insert, i) => {
    const value = insert.value;
    // Each body gets its own copy of an object default, as the walk gives it.
    (targets[i] as JSONObject)[insert.key] = typeof value === 'object' ? deepCopyJSON(value) : value;
  });
  return true;
}

/** What is known of a body's shape: its walk, or, for a new shape, what is needed to remember one. */
export type Found = { readonly walk: CleanShape } | { readonly key: string; readonly before: unknown };

/** The clean shapes of one kind's bodies. */
export class CleanShapes {
  readonly #memo = new ShapeMemo<CleanShape>();

  /**
   * What is known of the shape of `body` (parsed from `text`); for a new shape, the body as parsed
   * again, to see what its walk changes (the walk changes it in place). Undefined for a body that
   * is not keyed.
   */
  lookup(body: unknown, text: string): Found | undefined {
    if (!isObject(body)) return undefined;
    const found = this.#memo.lookup(body, text.length);
    if (found === undefined) return undefined;
    return 'value' in found ? { walk: found.value } : { key: found.key, before: JSON.parse(text) as unknown };
  }

  /**
   * Fills in the defaults the walk adds to a body of a clean shape, when its text holds the keys
   * that shape's did; false (and nothing filled in) when the body must be walked instead.
   */
  fill(body: unknown, found: Found, textKeys: number): boolean {
    if (!('walk' in found) || found.walk.keys !== textKeys || !isObject(body)) return false;
    return replay(body, found.walk.inserts);
  }

  /**
   * Remembers the walk of a body of a new shape that found nothing to say and left the body in
   * place (`after`): not when the walk did more than add members.
   */
  remember(found: Found, after: unknown, textKeys: number): void {
    if ('walk' in found) return;
    const inserts = insertions(found.before, after);
    if (inserts !== undefined) this.#memo.remember(found.key, { keys: textKeys, inserts });
  }
}

// Turns a requirement into a closure once, so matching an object costs a property read or two.
import { parseInt64 } from './int64.js';
import type { Requirement } from './requirement.js';

/** Labels as they sit on an object's metadata. */
export type Labels = Readonly<Record<string, string>>;

export type Matcher = (labels: Labels) => boolean;

// Own properties only: a label may well be called `constructor`.
function get(labels: Labels, key: string): string | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}

function compileIn(key: string, values: readonly string[], negate: boolean): Matcher {
  if (values.length === 1) {
    const want = values[0] ?? '';
    return negate ? (labels) => get(labels, key) !== want : (labels) => get(labels, key) === want;
  }
  const set = new Set(values);
  return negate
    ? (labels) => {
        const v = get(labels, key);
        return v === undefined || !set.has(v);
      }
    : (labels) => {
        const v = get(labels, key);
        return v !== undefined && set.has(v);
      };
}

function compileCompare(r: Requirement): Matcher {
  const bound = r.values.length === 1 ? parseInt64(r.values[0] ?? '') : undefined;
  if (bound === undefined) return () => false;
  const key = r.key;
  const greater = r.operator === 'gt';
  return (labels) => {
    const v = get(labels, key);
    const n = v === undefined ? undefined : parseInt64(v);
    if (n === undefined) return false;
    return greater ? n > bound : n < bound;
  };
}

/** The requirement's test as kube's Requirement.Matches defines it. */
export function compileRequirement(r: Requirement): Matcher {
  const key = r.key;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return compileIn(key, r.values, false);
    case 'notin':
    case '!=':
      return compileIn(key, r.values, true);
    case 'exists':
      return (labels) => Object.hasOwn(labels, key);
    case '!':
      return (labels) => !Object.hasOwn(labels, key);
    case 'gt':
    case 'lt':
      return compileCompare(r);
  }
}

// kube's CEL extras for CRD rules (k8s.io/apiserver/pkg/cel/library: lists.go, regex.go) as far as
// they are plain functions over CEL values. The Quantity library is quantity-library.ts, IP and
// CIDR net-library.ts, URLs url-library.ts, named formats format-library.ts, cel-go's optional
// types optional-library.ts and its two-variable comprehensions two-var-comprehensions.ts; left
// out: semver(), which kube 1.33 offers only to rules stored by a later version.
import type * as Cel from '@bufbuild/cel';
import { GoRegexp, RegexpSyntaxError } from '../../../../machinery/regexp/go-regexp.js';
import { RegexpCache } from '../../../../machinery/regexp/regexp-cache.js';

type Module = typeof Cel;
type Comparable = bigint | number | string | boolean;

function compare(a: unknown, b: unknown): number {
  const x = a as Comparable;
  const y = b as Comparable;
  return x < y ? -1 : x > y ? 1 : 0;
}

function items(list: Cel.CelList): unknown[] {
  return [...list];
}

function listFunctions(cel: Module): Cel.CelFunc[] {
  const { DYN, BOOL, INT } = cel.CelScalar;
  const list = cel.listType(DYN);
  const extreme = (name: string, sign: number): Cel.CelFunc =>
    cel.celMethod(name, list, [], DYN, function () {
      const all = items(this);
      if (all.length === 0) throw new Error(`${name} called on empty list`);
      return all.reduce((m, v) => (compare(v, m) * sign > 0 ? v : m)) as Cel.CelInput;
    });
  return [
    cel.celMethod('isSorted', list, [], BOOL, function () {
      const all = items(this);
      return all.every((v, i) => i === 0 || compare(all[i - 1], v) <= 0);
    }),
    cel.celMethod('sum', list, [], DYN, function () {
      const all = items(this);
      if (all.length === 0) return 0n;
      return all.reduce((s, v) => (s as bigint) + (v as bigint)) as Cel.CelInput;
    }),
    extreme('min', -1),
    extreme('max', 1),
    cel.celMethod('indexOf', list, [DYN], INT, function (x) {
      return BigInt(items(this).findIndex((v) => cel.run('a == b', { a: v as Cel.CelInput, b: x }) === true));
    }),
    cel.celMethod('lastIndexOf', list, [DYN], INT, function (x) {
      return BigInt(
        items(this).findLastIndex((v) => cel.run('a == b', { a: v as Cel.CelInput, b: x }) === true),
      );
    }),
  ];
}

// matches() is cel-go's (regexp.MatchString: its error text as is); find() and findAll() are kube's
// regex.go ("Illegal regex: …"). All take Go's RE2 syntax. A rule's pattern is most often a
// constant, so each compiled pattern is kept for the next evaluation.
function regexFunctions(cel: Module): Cel.CelFunc[] {
  const { STRING, BOOL, INT } = cel.CelScalar;
  const cache = new RegexpCache();
  const illegal = (pattern: string): GoRegexp => {
    try {
      return cache.compile(pattern);
    } catch (err) {
      if (err instanceof RegexpSyntaxError) throw new Error(`Illegal regex: ${err.message}`);
      throw err;
    }
  };
  return [
    cel.celMethod('matches', STRING, [STRING], BOOL, function (pattern) {
      return cache.compile(pattern).matchString(this);
    }),
    cel.celMethod('find', STRING, [STRING], STRING, function (pattern) {
      return illegal(pattern).findString(this);
    }),
    cel.celMethod('findAll', STRING, [STRING], cel.listType(STRING), function (pattern) {
      return illegal(pattern).findAllString(this, -1);
    }),
    cel.celMethod('findAll', STRING, [STRING, INT], cel.listType(STRING), function (pattern, n) {
      return illegal(pattern).findAllString(this, Number(n));
    }),
  ];
}

/** cel-go's sets extension (ext.Sets): containment, equivalence and intersection of lists. */
function setsFunctions(cel: Module): Cel.CelFunc[] {
  const { BOOL, DYN } = cel.CelScalar;
  const list = cel.listType(DYN);
  const equal = (a: unknown, b: unknown): boolean =>
    cel.run('a == b', { a: a as Cel.CelInput, b: b as Cel.CelInput }) === true;
  const has = (all: Cel.CelList, x: unknown): boolean => items(all).some((v) => equal(v, x));
  const contains = (a: Cel.CelList, b: Cel.CelList): boolean => items(b).every((x) => has(a, x));
  return [
    cel.celFunc('sets.contains', [list, list], BOOL, contains),
    cel.celFunc('sets.equivalent', [list, list], BOOL, (a, b) => contains(a, b) && contains(b, a)),
    cel.celFunc('sets.intersects', [list, list], BOOL, (a, b) => items(b).some((x) => has(a, x))),
  ];
}

/** The functions added to the standard environment. */
export function kubeFunctions(cel: Module): Cel.CelFunc[] {
  return [...listFunctions(cel), ...regexFunctions(cel), ...setsFunctions(cel)];
}

// The slow path for documents with repeated keys, or with numbers Go reads from their text:
// decodes raw JSON text as kube's Go decoder (sigs.k8s.io/json) does, guided by the compiled
// nodes. It reports strict errors in Go's order (unknown and duplicate fields, paths as kube prints
// them) and merges repeated objects as Go does: a repeated struct field decodes into the same
// struct, a repeated map reuses the map, anything else is replaced. A number keeps its text for a
// field that reads it (number-literal.ts).
import { setMember } from '../json/set-member.js';
import { stringEnd, keyText } from './duplicate-scan.js';
import { duplicateFieldError, strictPath, unknownFieldError } from './go-errors.js';
import type { Node } from './node.js';
import { hasFractionOrExponent, NumberLiteral } from './number-literal.js';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a value goes: a node, `detect` for interface{} (duplicates seen, no schema), or skipped. */
type Target = Node | 'detect' | undefined;

function merge(node: Node | undefined, old: unknown, next: unknown): unknown {
  if (node === undefined || !isObject(old) || !isObject(next)) return next;
  if (node.kind !== 'map' && node.kind !== 'struct') return next;
  for (const [key, value] of Object.entries(next)) {
    const keep = node.kind === 'struct' && Object.hasOwn(old, key);
    setMember(old, key, keep ? merge(node.fields?.[key], old[key], value) : value);
  }
  return old;
}

export class GoDecoder {
  readonly #text: string;
  #i = 0;
  readonly #path: (string | number)[] = [];
  readonly strict: string[] = [];

  constructor(text: string) {
    this.#text = text;
  }

  decode(root: Node): unknown {
    this.#ws();
    return this.#value(root);
  }

  #ws(): void {
    const t = this.#text;
    while (this.#i < t.length) {
      const c = t.charCodeAt(this.#i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.#i++;
    }
  }

  #value(target: Target): unknown {
    const c = this.#text.charCodeAt(this.#i);
    if (c === 0x7b) return this.#object(target);
    if (c === 0x5b) return this.#array(target);
    const start = this.#i;
    const value = this.#literal();
    // A number for a field that reads its text, written with a fraction or an exponent.
    if (typeof value === 'number' && typeof target === 'object' && target.readsNumberText === true) {
      const text = this.#text.slice(start, this.#i);
      if (hasFractionOrExponent(text)) return new NumberLiteral(text, value);
    }
    return value;
  }

  #literal(): unknown {
    const t = this.#text;
    const start = this.#i;
    if (t.charCodeAt(start) === 0x22) {
      const close = stringEnd(t, start);
      this.#i = close + 1;
      return keyText(t, start, close);
    }
    let end = start;
    while (end < t.length && !',}] \n\r\t'.includes(t[end] ?? ',')) end++;
    this.#i = end;
    return JSON.parse(t.slice(start, end)) as unknown;
  }

  #array(target: Target): unknown[] {
    const elem: Target = target === 'detect' ? 'detect' : target?.kind === 'list' ? target.elem : undefined;
    const out: unknown[] = [];
    this.#i++;
    this.#ws();
    if (this.#text.charCodeAt(this.#i) === 0x5d) {
      this.#i++;
      return out;
    }
    for (;;) {
      this.#path.push(out.length);
      out.push(this.#value(elem));
      this.#path.pop();
      this.#ws();
      const c = this.#text.charCodeAt(this.#i++);
      if (c === 0x5d) return out;
      this.#ws();
    }
  }

  #object(target: Target): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.#i++;
    this.#ws();
    if (this.#text.charCodeAt(this.#i) === 0x7d) {
      this.#i++;
      return out;
    }
    for (;;) {
      const key = this.#literal() as string;
      this.#ws();
      this.#i++; // ':'
      this.#ws();
      this.#member(target, out, { key, seen });
      this.#ws();
      const c = this.#text.charCodeAt(this.#i++);
      if (c === 0x7d) return out;
      this.#ws();
    }
  }

  #member(target: Target, out: Record<string, unknown>, m: { key: string; seen: Set<string> }): void {
    const { key, seen } = m;
    let sub: Target;
    if (target === 'detect' || target?.kind === 'any') {
      sub = 'detect';
    } else if (target?.kind === 'map') {
      sub = target.elem;
    } else if (target?.kind === 'struct') {
      sub = target.fields?.[key];
      if (sub === undefined && target.preserveUnknown !== true) {
        this.strict.push(unknownFieldError(strictPath(this.#path, key)));
      }
      if (sub === undefined && target.preserveUnknown === true) sub = 'detect';
    }
    const detects =
      target !== undefined && (target === 'detect' || (target.kind !== 'raw' && target.kind !== 'leaf'));
    const known = sub !== undefined;
    if (detects && known) {
      if (seen.has(key)) this.strict.push(duplicateFieldError(strictPath(this.#path, key)));
      else seen.add(key);
    }
    this.#path.push(key);
    const value = this.#value(sub);
    this.#path.pop();
    const node =
      typeof target === 'object' && target.kind === 'struct' && typeof sub === 'object' ? sub : undefined;
    setMember(out, key, Object.hasOwn(out, key) ? merge(node, out[key], value) : value);
  }
}

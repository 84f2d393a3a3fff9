// Decodes a request body into a kind the way kube-apiserver's typed JSON decoder does, with
// fieldValidation: type errors (fatal in every mode), strict errors (unknown and duplicate
// fields), pruning of unknown fields, and schema defaults.
// Follows k8s.io/apimachinery/pkg/runtime/serializer/json (strict decoding through sigs.k8s.io/json).
import type { Scheme } from '../../api/scheme.js';
import type { KindInfo } from '../../api/schema/types.js';
import { CleanShapes } from './clean-shapes.js';
import { Compiler } from './compile.js';
import { scanText } from './duplicate-scan.js';
import { GoDecoder } from './go-decode.js';
import { DecodeAbort, type Node, type WalkState } from './node.js';

export const fieldValidationDirectives = ['Ignore', 'Warn', 'Strict'] as const;
export type FieldValidationDirective = (typeof fieldValidationDirectives)[number];

export interface DecodeOptions {
  readonly fieldValidation: FieldValidationDirective;
  /** The body came from YAML: kube's YAML→JSON step sorts keys, so strict errors come sorted. */
  readonly fromYAML?: boolean;
  /** Apply schema defaults (default true). */
  readonly defaults?: boolean;
  /**
   * Parts of the value known to be this decoder's output already (copies of the live object's,
   * where a patch left them), or stand-ins for parts the caller puts in from the live object (a
   * PUT body's members that repeat its bytes): neither walked nor changed, so a write that leaves
   * most of an object alone costs the walk of what it changed.
   */
  readonly decoded?: WeakSet<object> | undefined;
}

export interface DecodeResult {
  /** The decoded object, pruned and defaulted in place. Meaningless when `error` is set. */
  readonly object: unknown;
  /** Go's decoder error (`json: cannot unmarshal …`, `illegal base64 data …`), fatal in every mode. */
  readonly error?: string;
  /** `unknown field "…"` and `duplicate field "…"` in kube's order, deduplicated, at most 100. */
  readonly strictErrors: readonly string[];
}

/** sigs.k8s.io/json keeps at most 100 distinct strict errors. */
function limitStrict(errors: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (out.length >= 100) break;
    if (seen.has(e)) continue;
    seen.add(e);
    out.push(e);
  }
  return out;
}

/** Whether a walk of `value` left it in place and found nothing to say (it may have added defaults). */
const clean = (value: unknown, result: DecodeResult): boolean =>
  result.object === value && result.error === undefined && result.strictErrors.length === 0;

export class StructuralDecoder {
  readonly #compiler: Compiler;
  /** Per kind, the shapes of bodies whose walk only added defaults (clean-shapes.ts). */
  readonly #cleanShapes = new WeakMap<Node, CleanShapes>();

  constructor(scheme: Scheme) {
    this.#compiler = new Compiler(scheme);
  }

  /** The compiled node of a kind (compiled on first use, then cached). */
  nodeFor(kind: KindInfo): Node {
    return this.#compiler.definition(kind.definition);
  }

  /**
   * Decodes JSON text. Throws SyntaxError for text that is not JSON; the caller reports syntax
   * errors (they are not field validation).
   */
  decodeText(text: string, kind: KindInfo, options: DecodeOptions): DecodeResult {
    return this.decodeParsed({ value: JSON.parse(text) as unknown, text }, kind, options);
  }

  /**
   * Decodes a client's JSON body that JSON.parse has already turned into `value` (which this
   * mutates). Repeated keys, which JSON.parse hides, are found by counting the keys in `text`; a
   * body with repeats is decoded again from the text with Go's semantics. So is a body with a
   * number written with a fraction or an exponent, which Go reads from its text where that is
   * what the field takes (an integer's `1.0` is refused, a Quantity's `1e3` kept as written).
   */
  decodeParsed(
    input: { readonly value: unknown; readonly text: string },
    kind: KindInfo,
    options: DecodeOptions,
  ): DecodeResult {
    const root = this.nodeFor(kind);
    const { value, text } = input;
    const scan = scanText(text);
    if (!scan.fractionOrExponent) {
      // A value with parts noted as decoded is not what its shape says: those parts are not walked.
      const shapes =
        options.defaults === false || options.decoded !== undefined ? undefined : this.#shapesOf(root);
      const found = shapes?.lookup(value, text);
      if (found !== undefined && shapes?.fill(value, found, scan.keys) === true)
        return { object: value, strictErrors: [] };
      const fast = this.#walk(root, value, { options, collectUnknown: true, countKeys: true });
      if (fast.keys === scan.keys) {
        if (found !== undefined && clean(value, fast.result)) shapes?.remember(found, value, scan.keys);
        return fast.result;
      }
    }
    const go = new GoDecoder(text);
    const decoded = go.decode(root);
    const { result } = this.#walk(root, decoded, { options, collectUnknown: false, countKeys: false });
    return { ...result, strictErrors: options.fieldValidation === 'Ignore' ? [] : limitStrict(go.strict) };
  }

  /**
   * Decodes a value without repeated keys to look for: YAML converted to JSON (its conversion
   * already merged repeats), or an object the server built (a patched object). Mutates it.
   */
  decodeValue(value: unknown, kind: KindInfo, options: DecodeOptions): DecodeResult {
    return this.#walk(this.nodeFor(kind), value, { options, collectUnknown: true, countKeys: false }).result;
  }

  /**
   * JSON text decoded as the text decoder reads it, with the numbers Go reads from their text kept
   * as NumberLiterals (number-literal.ts); undefined when the text has no number with a fraction
   * or an exponent. For a patch whose values land at the paths they have in its text.
   */
  numberLiterals(text: string, kind: KindInfo): unknown {
    if (!scanText(text).fractionOrExponent) return undefined;
    return new GoDecoder(text).decode(this.nodeFor(kind));
  }

  #shapesOf(root: Node): CleanShapes {
    let shapes = this.#cleanShapes.get(root);
    if (shapes === undefined) this.#cleanShapes.set(root, (shapes = new CleanShapes()));
    return shapes;
  }

  #walk(
    root: Node,
    value: unknown,
    w: { options: DecodeOptions; collectUnknown: boolean; countKeys: boolean },
  ): { result: DecodeResult; keys: number } {
    const { options } = w;
    const st: WalkState = {
      collectUnknown: w.collectUnknown && options.fieldValidation !== 'Ignore',
      prune: true,
      defaults: options.defaults ?? true,
      sortedKeys: options.fromYAML === true,
      strict: [],
      keys: 0,
      countKeys: w.countKeys,
      saved: undefined,
      path: [],
      structs: [],
      decoded: options.decoded,
    };
    let object: unknown;
    try {
      object = root.check(value, st);
    } catch (e) {
      if (e instanceof DecodeAbort)
        return { result: { object: value, error: e.message, strictErrors: [] }, keys: -1 };
      throw e;
    }
    if (st.saved !== undefined)
      return { result: { object, error: st.saved, strictErrors: [] }, keys: st.keys };
    return { result: { object, strictErrors: limitStrict(st.strict) }, keys: st.keys };
  }
}

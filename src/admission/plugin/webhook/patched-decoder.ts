// A patched object read back as kube reads it: decoded into its built-in type (fields the type does
// not have are dropped, wrong types refused) and defaulted (mutating/dispatcher.go decodes the
// patched JSON, then runs the scheme's defaulter), so a container a webhook injects gets its
// defaults as one in the request body would. Custom resources pass as they are.
import { builtinScheme } from '../../../api/builtin-scheme.js';
import type { Scheme } from '../../../api/scheme.js';
import { StructuralDecoder } from '../../../machinery/structural/index.js';
import type { GroupVersionKind } from '../../../machinery/schema/group-resource.js';

export type PatchedDecode =
  | { readonly ok: true; readonly object: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/** Decodes patched objects; the scheme and its decoder are built on the first patch. */
export class PatchedObjectDecoder {
  #scheme: Scheme | undefined;
  #decoder: StructuralDecoder | undefined;

  /**
   * `patched.object` is the patched object (changed in place), `patched.text` the JSON it is the
   * value of, as the patch library wrote it: its numbers as the webhook wrote them.
   */
  decode(
    kind: GroupVersionKind,
    patched: { readonly object: Record<string, unknown>; readonly text: string },
  ): PatchedDecode {
    const { object, text } = patched;
    this.#scheme ??= builtinScheme();
    this.#decoder ??= new StructuralDecoder(this.#scheme);
    const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
    const info = this.#scheme.kindFor(apiVersion, kind.kind);
    if (info === undefined) return { ok: true, object };
    const result = this.#decoder.decodeParsed({ value: object, text }, info, { fieldValidation: 'Ignore' });
    if (result.error !== undefined) return { ok: false, message: result.error };
    return { ok: true, object: result.object as Record<string, unknown> };
  }
}

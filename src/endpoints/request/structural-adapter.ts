// Plugs src/machinery/structural's decoder into body decoding for the Scheme's kinds.
import type { KubeObject } from '../../api/meta.js';
import type { Scheme } from '../../api/scheme.js';
import type { StructuralDecoder as SchemaDecoder } from '../../machinery/structural/index.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import type { StructuralDecoder } from './decode-object.js';

export function structuralDecoderFor(scheme: Scheme, decoder: SchemaDecoder): StructuralDecoder {
  const kindOf = (gvk: GroupVersionKind) =>
    scheme.kindFor(gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, gvk.kind);
  return {
    numberLiterals(gvk, text) {
      const kind = kindOf(gvk);
      return kind === undefined ? undefined : decoder.numberLiterals(text, kind);
    },
    decode(gvk, input) {
      const kind = kindOf(gvk);
      if (kind === undefined) return { ok: true, object: input.value, strictErrors: [] };
      const options = {
        fieldValidation: input.fieldValidation,
        fromYAML: input.fromYAML,
        decoded: input.decoded,
      };
      // YAML's conversion and the server's own objects have no repeated keys to look for.
      const result =
        input.fromYAML || input.raw === undefined
          ? decoder.decodeValue(input.value, kind, options)
          : decoder.decodeParsed({ value: input.value, text: input.raw }, kind, options);
      if (result.error !== undefined) return { ok: false, message: result.error };
      return { ok: true, object: result.object as KubeObject, strictErrors: result.strictErrors };
    },
  };
}

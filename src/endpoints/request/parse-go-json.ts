// Parses a JSON body with encoding/json's verdict but at JSON.parse's cost. JSON.parse and Go's
// scanner take the same grammar over the same structure: the body's UTF-8 decoding turns only
// bytes >= 0x80 into other characters (U+FFFD for invalid ones), never an ASCII byte, so a body
// JSON.parse accepts has all its non-ASCII bytes inside strings, where Go takes any byte too
// (a BOM or a stray byte outside strings fails both). The one document Go refuses beyond
// JSON.parse is one nested deeper than maxNestingDepth. So the byte scanner, which words Go's
// message, runs only on a failure or on a body with enough brackets to be that deep.
// Capstan stops earlier than Go, at maxDecodeDepth: its decoders, validators and patchers walk
// objects recursively, and Node's stack holds a few thousand levels of them, not Go's 10,000.
import { maxDecodeDepth } from '../../machinery/json/depth.js';
import { mayEscapeSurrogate, wellFormedJSON } from '../../machinery/json/well-formed.js';
import { goJSONSyntaxError } from '../../machinery/json/go-json-syntax.js';

export type GoJSONParse =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** Whether `text` holds more than maxDecodeDepth opening brackets (in strings or not). */
function mayNestTooDeep(text: string): boolean {
  // A document that deep has that many brackets to open and as many to close.
  if (text.length <= 2 * maxDecodeDepth) return false;
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) {
      if (++count > maxDecodeDepth) return true;
    }
  }
  return false;
}

/**
 * The value of `text`, or the message Go's json.Unmarshal gives for it; `bytes` are what `text`
 * was decoded from (Go's messages quote bytes), its UTF-8 encoding when omitted.
 */
export function parseGoJSON(text: string, bytes?: Uint8Array): GoJSONParse {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (err) {
    const error = goJSONSyntaxError(bytes ?? Buffer.from(text), maxDecodeDepth);
    // Unreachable by the grammar argument above; kept as the failure it was.
    if (error === null) throw err;
    return { ok: false, error };
  }
  if (mayNestTooDeep(text)) {
    const error = goJSONSyntaxError(bytes ?? Buffer.from(text), maxDecodeDepth);
    if (error !== null) return { ok: false, error };
  }
  // An escaped lone surrogate is U+FFFD to Go (well-formed.ts).
  return { ok: true, value: mayEscapeSurrogate(text) ? wellFormedJSON(value) : value };
}

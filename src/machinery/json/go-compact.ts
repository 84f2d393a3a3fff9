// JSON bytes as Go's encoder writes the output of a json.Marshaler (encoding/json's compact with
// HTML escaping): checked to be one JSON value, whitespace between tokens removed, `<`, `>`, `&`
// and U+2028/U+2029 escaped, every other byte kept (member order, number text like 1.50 or 1e3,
// escapes as sent). kube's audit writes a patch it logged as bytes (runtime.Unknown) this way.
import { escapeGoHTML } from './go-json-text.js';

/** encoding/json's scanner refuses values nested deeper than this. */
const maxNestingDepth = 10_000;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Valid JSON text without the whitespace between its tokens; undefined when nested deeper than
 * Go's scanner allows. Inside strings nothing changes (a quote in one is escaped, so the first
 * unescaped quote ends it).
 */
function withoutSpace(text: string): string | undefined {
  let out = '';
  let from = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) return undefined;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (isSpace(c)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The text Go's encoder writes for raw JSON bytes, or undefined when they are not one JSON value
 * (Go's encoder then fails: empty, YAML, trailing data, too deep). Bytes that are not UTF-8 are
 * read as U+FFFD, where Go would copy them.
 */
export function compactGoJSON(bytes: Uint8Array): string | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  const compact = withoutSpace(text);
  return compact === undefined ? undefined : escapeGoHTML(compact);
}

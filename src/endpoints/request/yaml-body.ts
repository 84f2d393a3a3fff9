// YAML request bodies become JSON before decoding, as sigs.k8s.io/yaml's YAMLToJSON does.
import type { Document, Tags } from 'yaml';
import { maxDecodeDepth, nestsDeeperThan } from '../../machinery/json/depth.js';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';

export class YAMLSyntaxError extends Error {}

const timestampTag = 'tag:yaml.org,2002:timestamp';

// go-yaml v2 resolves a plain scalar that looks like a timestamp, but decoded into interface{} (as
// YAMLToJSON does) it stays the string written: `2024-01-02T03:04:05.123456Z` keeps its
// microseconds and `2024-01-02` stays a date, where the yaml package would make Dates of them.
const withoutTimestamps = (tags: Tags): Tags =>
  tags.filter((t) => (typeof t === 'string' ? t : t.tag) !== timestampTag);

/**
 * The YAML parser recurses into flow collections and runs out of stack some hundreds deep (V8 can
 * then abort the process while compiling a regular expression), so deeper ones are refused first.
 */
const maxFlowDepth = 300;

/** Whether `[` and `{` outside quotes and comments nest deeper than `limit`; one pass, no recursion. */
function flowNestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[' || c === '{') {
      if (++depth > limit) return true;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === "'") {
      while (++i < text.length && text[i] !== "'");
    } else if (c === '#') {
      while (++i < text.length && text[i] !== '\n');
    }
  }
  return false;
}

/**
 * Where the first `\u` or `\U` escape in `source` (a double-quoted scalar as written) holds a
 * code point go-yaml refuses: a UTF-16 surrogate or one beyond U+10FFFF. YAML escapes code points,
 * not UTF-16 units, so each half of an escaped pair (`"\ud83d\ude00"`, valid JSON) is refused too.
 */
function badEscapeIn(source: string): number | undefined {
  for (let i = source.indexOf('\\'); i !== -1; i = source.indexOf('\\', i)) {
    const c = source[i + 1];
    const width = c === 'u' ? 4 : c === 'U' ? 8 : 0;
    const code = width === 0 ? NaN : Number.parseInt(source.slice(i + 2, i + 2 + width), 16);
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += 2 + width;
  }
  return undefined;
}

/**
 * go-yaml's scanner error for an escape it refuses in a double-quoted scalar (badEscapeIn), with
 * the line as go-yaml gives a scanner error's (none on the first line); undefined when none is.
 */
function badEscapeError(text: string, doc: Document): string | undefined {
  if (!text.includes('\\u') && !text.includes('\\U')) return undefined;
  let at: number | undefined;
  yamlLibrary().visit(doc, {
    Scalar(_key, node) {
      if (node.type !== 'QUOTE_DOUBLE' || node.range === undefined || node.range === null) return undefined;
      const found = badEscapeIn(text.slice(node.range[0], node.range[1]));
      if (found === undefined) return undefined;
      const offset = node.range[0] + found;
      if (at === undefined || offset < at) at = offset;
      return undefined;
    },
  });
  if (at === undefined) return undefined;
  let line = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return `${line === 0 ? '' : `line ${line + 1}: `}found invalid Unicode character escape code`;
}

/** The JSON text of a YAML body; throws YAMLSyntaxError with a go-yaml-like message. */
export function yamlToJSONText(body: Buffer): string {
  const text = body.toString('utf8');
  if (flowNestsDeeperThan(text, maxFlowDepth)) {
    throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: exceeded max depth of ${maxFlowDepth}`);
  }
  const doc = yamlLibrary().parseDocument(text, {
    uniqueKeys: false,
    version: '1.1',
    customTags: withoutTimestamps,
  });
  const first = doc.errors[0];
  if (first !== undefined) {
    const line = first.linePos?.[0].line ?? 1;
    throw new YAMLSyntaxError(
      `error converting YAML to JSON: yaml: line ${line}: ${first.message.split('\n')[0] ?? ''}`,
    );
  }
  const escape = badEscapeError(text, doc);
  if (escape !== undefined) throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: ${escape}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // Alias bombs, aliases without an anchor and documents too deep to convert: go-yaml refuses
    // them while parsing, and so does Capstan, with go-yaml's words where it has them.
    throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: ${toJSFailure(err)}`);
  }
  if (nestsDeeperThan(value, maxDecodeDepth)) {
    throw new YAMLSyntaxError(`error converting YAML to JSON: yaml: exceeded max depth of ${maxDecodeDepth}`);
  }
  return JSON.stringify(value ?? null);
}

function toJSFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (message.startsWith('Excessive alias count')) return 'document contains excessive aliasing';
  const unresolved = /^Unresolved alias.*: (.*)$/.exec(message);
  if (unresolved !== null) return `unknown anchor '${unresolved[1] ?? ''}' referenced`;
  if (err instanceof RangeError) return `exceeded max depth of ${maxDecodeDepth}`;
  return message;
}

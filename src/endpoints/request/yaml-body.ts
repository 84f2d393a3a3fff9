// YAML request bodies become JSON before decoding, as sigs.k8s.io/yaml's YAMLToJSON does.
import type { Tags } from 'yaml';
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

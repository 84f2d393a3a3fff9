// YAML request bodies become JSON before decoding, as sigs.k8s.io/yaml's YAMLToJSON does.
import type { Tags } from 'yaml';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';

export class YAMLSyntaxError extends Error {}

const timestampTag = 'tag:yaml.org,2002:timestamp';

// go-yaml v2 resolves a plain scalar that looks like a timestamp, but decoded into interface{} (as
// YAMLToJSON does) it stays the string written: `2024-01-02T03:04:05.123456Z` keeps its
// microseconds and `2024-01-02` stays a date, where the yaml package would make Dates of them.
const withoutTimestamps = (tags: Tags): Tags =>
  tags.filter((t) => (typeof t === 'string' ? t : t.tag) !== timestampTag);

/** The JSON text of a YAML body; throws YAMLSyntaxError with a go-yaml-like message. */
export function yamlToJSONText(body: Buffer): string {
  const doc = yamlLibrary().parseDocument(body.toString('utf8'), {
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
  return JSON.stringify(doc.toJS({ maxAliasCount: 100 }) ?? null);
}

// The compiled `pattern` of a schema node, in Go's regexp syntax as kube-openapi and the CRD
// validation compile it (regexp.Compile). A node's pattern is compiled once, when first used, and
// kept with the node: the schema of a served CRD version lives as long as its strategy, so every
// request after the first finds it compiled. Keyed by the node, not the text, so one server's CRDs
// never see another's entries, and a dropped schema takes its patterns with it.
import type { JSONSchemaProps } from '../../../../api/apiextensions/v1/json-schema-props.js';
import { GoRegexp, RegexpSyntaxError } from '../../../../machinery/regexp/go-regexp.js';

interface Compiled {
  readonly pattern: string;
  /** The regexp, or Go's error text when the pattern does not compile. */
  readonly result: GoRegexp | string;
}

const compiledByNode = new WeakMap<JSONSchemaProps, Compiled>();

/** The node's pattern compiled, or Go's error text ("error parsing regexp: …"). */
export function schemaPattern(node: JSONSchemaProps, pattern: string): GoRegexp | string {
  const cached = compiledByNode.get(node);
  if (cached?.pattern === pattern) return cached.result;
  let result: GoRegexp | string;
  try {
    result = GoRegexp.compile(pattern);
  } catch (err) {
    if (!(err instanceof RegexpSyntaxError)) throw err;
    result = err.message;
  }
  compiledByNode.set(node, { pattern, result });
  return result;
}

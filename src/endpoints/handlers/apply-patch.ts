// Server-side apply (handlers/patch.go applyPatcher): the YAML or JSON body is the manager's
// configuration, merged by the field manager, which answers conflicts with 409 unless forced.
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import { copyAsJSONNotingShared } from '../../machinery/json/copy-as-json.js';
import { mayEscapeSurrogate } from '../../machinery/json/well-formed.js';
import { yamlLibrary } from '../../machinery/yaml/yaml-library.js';
import { isJSONObject } from '../../machinery/patch/json.js';
import { unknownError } from '../fieldmanager/field-manager.js';
import type { FieldManagers } from '../fieldmanager/field-managers.js';
import { scanText } from '../../machinery/structural/duplicate-scan.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { YAMLSyntaxError, yamlToJSONText } from '../request/yaml-body.js';
import { maxDecodeDepth, nestsDeeperThan } from '../../machinery/json/depth.js';
import type { PatchContext, PatchInput, PatchMechanism } from './patch-mechanism.js';

interface PreparedApply {
  readonly config: KubeObject;
  readonly context: PatchContext;
  /** The body's length: the field manager remembers the sets of small configurations only. */
  readonly bodyBytes: number;
}

/** go-yaml takes keys up to this long as simple keys and refuses longer ones. */
const maxSimpleKeyLength = 1024;

const tooDeep = (): Error =>
  newBadRequest(`error decoding YAML: yaml: exceeded max depth of ${maxDecodeDepth}`);

/**
 * The object keys in `value` (an object or array at `depth`, the top being 1), at every depth; -1
 * when it holds a number JSON.parse made infinite (YAML reads such a number otherwise) or a key
 * YAML would refuse as too long. Refuses what nests past maxDecodeDepth as it counts, so the
 * recursion stays that shallow.
 */
function plainKeyCount(value: unknown, depth: number): number {
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : -1;
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > maxDecodeDepth) throw tooDeep();
  let count = 0;
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) {
      const n = plainKeyCount(v, depth + 1);
      if (n < 0) return -1;
      count += n;
    }
    return count;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    if (key.length > maxSimpleKeyLength) return -1;
    const n = plainKeyCount(obj[key], depth + 1);
    if (n < 0) return -1;
    count += 1 + n;
  }
  return count;
}

const goTypeOf = (v: unknown): string =>
  Array.isArray(v)
    ? '[]interface {}'
    : typeof v === 'number'
      ? 'float64'
      : typeof v === 'boolean'
        ? 'bool'
        : 'string';

/** kube's unstructured accessor refuses a metadata that is not a map: 400 with its words. */
function checkMetadataShape(config: KubeObject): KubeObject {
  const meta: unknown = config.metadata;
  if (meta === undefined || meta === null || isJSONObject(meta)) return config;
  const shown = typeof meta === 'string' ? meta : JSON.stringify(meta);
  throw newBadRequest(
    `.metadata accessor error: ${shown} is of the type ${goTypeOf(meta)}, expected map[string]interface{}`,
  );
}

/** The apply path walks the configuration recursively: past maxDecodeDepth it is refused. */
function refuseTooDeep(value: unknown): void {
  if (nestsDeeperThan(value, maxDecodeDepth)) throw tooDeep();
}

/**
 * Most apply bodies are JSON (kubectl, client-go and client-node send JSON), and a JSON object read
 * as YAML is what JSON.parse gives, unless it repeats a key (YAML's strict decoding reports it),
 * holds a number beyond float64, a key too long for YAML, tabs (YAML's rules on them differ), or
 * escapes a UTF-16 surrogate (go-yaml refuses one, even half of a pair: yaml-body.ts).
 * Those bodies, and whatever JSON.parse refuses, are left to the YAML parser.
 */
function parsedAsJSON(text: string): KubeObject | undefined {
  if (!text.trimStart().startsWith('{') || text.includes('\t') || mayEscapeSurrogate(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJSONObject(value)) return undefined;
  const keys = plainKeyCount(value, 1);
  // The count stopped early: what it did not reach is measured before the YAML parser sees it.
  if (keys < 0) refuseTooDeep(value);
  return keys >= 0 && keys === scanText(text).keys ? value : undefined;
}

function decodeYAMLConfig(patch: Buffer): KubeObject {
  let text: string;
  try {
    text = yamlToJSONText(patch);
  } catch (err) {
    if (err instanceof YAMLSyntaxError) throw newBadRequest(`error decoding YAML: ${err.message}`);
    throw err;
  }
  const value: unknown = JSON.parse(text);
  if (value === null) return {};
  refuseTooDeep(value);
  if (!isJSONObject(value)) {
    throw newBadRequest(
      `error decoding YAML: json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type map[string]interface {}`,
    );
  }
  return value;
}

/** yaml.UnmarshalStrict: repeated keys fail under Strict and warn under Warn. */
function checkDuplicates(input: PatchInput, context: PatchContext): void {
  if (input.fieldValidation === 'Ignore') return;
  const doc = yamlLibrary().parseDocument(input.patch.toString('utf8'), { uniqueKeys: true, version: '1.1' });
  const dup = doc.errors.find((e) => e.code === 'DUPLICATE_KEY');
  if (dup === undefined) return;
  const line = dup.linePos?.[0].line ?? 1;
  const text = `error converting YAML to JSON: yaml: unmarshal errors:\n  line ${line}: ${dup.message.split('\n')[0] ?? ''}`;
  if (input.fieldValidation === 'Strict') throw newBadRequest(`error strict decoding YAML: ${text}`);
  context.addWarning(text);
}

/**
 * The merged object copied, as the merge shares values with the configuration, which a retry
 * applies again; all but its managedFields, which the field manager built for this try (they may
 * share FieldsV1 with the live object's entries, which nothing writes to). Kept as built, they stay
 * the FieldsV1 the field manager knows to be canonical, and the write vouches for them to the next
 * update of the object (storage/managed-fields-span.ts), which then skips their check. The copies
 * of what the merge kept of the live object go into `shared` (PatchMechanism.applyObject).
 */
function copyMerged(merged: KubeObject, current: KubeObject, shared: WeakSet<object>): unknown {
  const meta = merged.metadata;
  const entries = meta?.managedFields;
  if (meta === undefined || entries === undefined) return copyAsJSONNotingShared(merged, current, shared);
  // A string in the list's place keeps the member where it is; the list goes back there.
  const marked = { ...merged, metadata: { ...meta, managedFields: '' } };
  const copy = copyAsJSONNotingShared(marked, current, shared) as KubeObject;
  (copy.metadata ??= {}).managedFields = entries;
  return copy;
}

export function applyPatchMechanism(fieldManagers: FieldManagers): PatchMechanism {
  const applied = (prepared: unknown, current: KubeObject): KubeObject => {
    const { config, context, bodyBytes } = prepared as PreparedApply;
    const fm = fieldManagers.forKind(context.kind, context.subresource);
    if (fm === undefined) throw unknownError('FieldManager must be installed to run apply');
    return fm.apply(current, config, { manager: context.fieldManager, force: context.force, bodyBytes });
  };
  return {
    managesFields: true,
    prepare(input: PatchInput): PreparedApply {
      const context = input.context;
      if (context === undefined) throw new Error('apply patches need the request context');
      const bodyBytes = input.patch.length;
      const fast = parsedAsJSON(input.patch.toString('utf8'));
      if (fast !== undefined) return { config: checkMetadataShape(fast), context, bodyBytes };
      const config = decodeYAMLConfig(input.patch);
      checkDuplicates(input, context);
      return { config: checkMetadataShape(config), context, bodyBytes };
    },
    apply(prepared: unknown, current: KubeObject): string {
      return JSON.stringify(applied(prepared, current));
    },
    applyObject: (prepared: unknown, current: KubeObject, shared: WeakSet<object>): unknown =>
      copyMerged(applied(prepared, current), current, shared),
  };
}

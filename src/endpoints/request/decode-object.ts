// Decodes a create or update body into an object of the endpoint's kind, failing as kube's
// codec and transformDecodeError do (endpoints/handlers/rest.go, runtime/serializer/json).
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import { ProtoError, type ProtobufDecoder, type Unknown } from '../../machinery/protobuf/index.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import type { FieldValidation } from '../../registry/rest/options.js';
import { unsupportedMediaTypeError } from '../negotiation/errors.js';
import {
  textBodySerializers,
  type BodyMediaTypeName,
  type SerializerInfo,
} from '../negotiation/media-types.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { parseGoJSON } from './parse-go-json.js';
import { YAMLSyntaxError, yamlToJSONText } from './yaml-body.js';

/** Which kinds exist (kube's runtime.Scheme); `Scheme.kindFor` satisfies it. */
export interface KindRegistry {
  kindFor(apiVersion: string, kind: string): object | undefined;
}

/**
 * Schema-driven decoding (src/machinery/structural): type checks, defaults and pruning, with
 * unknown and duplicate fields reported for fieldValidation. Messages are Go's, e.g.
 * `json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string`
 * and `unknown field "spec.foo"`.
 */
export interface StructuralDecoder {
  decode(
    gvk: GroupVersionKind,
    input: {
      readonly value: Record<string, unknown>;
      /**
       * The JSON text the value was parsed from (YAML bodies: its JSON conversion); undefined for
       * an object the server built, which has no repeated keys to look for.
       */
      readonly raw: string | undefined;
      readonly fromYAML: boolean;
      readonly fieldValidation: FieldValidation;
      /** Parts of the value known to be the decoder's output already, left as they are. */
      readonly decoded?: WeakSet<object> | undefined;
    },
  ): { ok: true; object: KubeObject; strictErrors: readonly string[] } | { ok: false; message: string };
  /**
   * A JSON text of the kind (a merge patch) decoded with the numbers Go reads from their text kept
   * as written, for withNumberLiterals; undefined when it has none, or the kind is not the scheme's.
   */
  numberLiterals?(gvk: GroupVersionKind, text: string): unknown;
}

export interface DecodeObjectOptions {
  readonly expected: GroupVersionKind;
  readonly serializer: SerializerInfo<BodyMediaTypeName>;
  readonly fieldValidation: FieldValidation;
  readonly kinds: KindRegistry;
  readonly structural?: StructuralDecoder | undefined;
  /** Decodes protobuf bodies of the kinds that have protobuf tables; without it they are 415. */
  readonly protobuf?: ProtobufDecoder | undefined;
  readonly addWarning: (text: string) => void;
  /** Other versions of the expected kind the endpoint takes as they are (rest.GroupVersionAcceptor). */
  readonly accepts?: ((gv: { group: string; version: string }) => boolean) | undefined;
  /**
   * The endpoint serves custom resources, decoded unstructured as kube's CR codec does: a body of
   * another kind in the endpoint's group and version is taken as it is (kind kept, neither pruned
   * nor defaulted, which kube's coercer and defaulter do only to the CRD's kind), for the
   * strategy's type check to refuse.
   */
  readonly unstructured?: boolean | undefined;
}

const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
// The scheme kube-apiserver registers its built-in types in, as its errors name it.
const schemeName = 'pkg/api/legacyscheme/scheme.go:30';

function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  if (body[0] === 0x7b)
    return body.length > 30 ? `${body.subarray(0, 30).toString('utf8')} ...` : body.toString('utf8');
  return body.length > 30 ? `${body.subarray(0, 30).toString('hex')} ...` : body.toString('hex');
}

const gvString = (gv: { group: string; version: string }): string =>
  gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;

/** A body the codec rejects; `gvk` is the kind it claimed, when it got that far. */
export class Undecodable extends Error {
  readonly gvk: GroupVersionKind | undefined;
  constructor(message: string, gvk?: GroupVersionKind) {
    super(message);
    this.gvk = gvk;
  }
}

/** schema.ParseGroupVersion: any number of slashes but one is an error; empty parts are allowed. */
function parseGroupVersion(s: string): { group: string; version: string } {
  if (s === '' || s === '/') return { group: '', version: '' };
  const parts = s.split('/');
  if (parts.length === 1) return { group: '', version: s };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Undecodable(`unexpected GroupVersion string: ${s}`);
}

function interpret(value: unknown): { obj: Record<string, unknown>; apiVersion: string; kind: string } {
  if (value === null) return { obj: {}, apiVersion: '', kind: '' };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Undecodable(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type ${findKindType}`,
    );
  }
  const obj = value as Record<string, unknown>;
  const read = (field: string): string => {
    const v = obj[field];
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    throw new Undecodable(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field .${field} of type string`,
    );
  };
  return { obj, apiVersion: read('apiVersion'), kind: read('kind') };
}

// gvkWithDefaults: a missing kind, or a missing group and version, come from the endpoint.
function withDefaults(
  actual: { group: string; version: string; kind: string },
  def: GroupVersionKind,
): GroupVersionKind {
  const out = { ...actual };
  if (out.kind === '') out.kind = def.kind;
  if (out.version === '' && out.group === '') {
    out.group = def.group;
    out.version = def.version;
  }
  if (out.version === '' && out.group === def.group) out.version = def.version;
  return out;
}

const internalPackage = (group: string): string => (group === '' ? 'core' : (group.split('.')[0] ?? group));

const apiVersionMismatch = (actual: GroupVersionKind, e: GroupVersionKind): Error =>
  newBadRequest(
    `the API version in the data (${gvString(actual)}) does not match the expected API version (${gvString(e)})`,
  );

/** Whether the body is of the expected kind (`same`) or an unstructured one of another (`other`). */
function checkKind(actual: GroupVersionKind, opts: DecodeObjectOptions): 'same' | 'other' {
  const e = opts.expected;
  if (actual.group === e.group && actual.version === e.version) {
    if (actual.kind === e.kind) return 'same';
    if (opts.unstructured === true) return 'other';
  }
  // The CR codec decodes any apiVersion; the handler then takes only its own (AcceptsGroupVersion).
  if (opts.unstructured === true) throw apiVersionMismatch(actual, e);
  // Same fields in the accepted versions (policy/v1beta1 and v1 Eviction): no conversion needed.
  if (actual.kind === e.kind && opts.accepts?.(actual) === true) return 'same';
  if (opts.kinds.kindFor(gvString(actual), actual.kind) === undefined) {
    throw new Undecodable(
      `no kind "${actual.kind}" is registered for version "${gvString(actual)}" in scheme "${schemeName}"`,
      actual,
    );
  }
  if (actual.kind === e.kind && actual.group === e.group) throw apiVersionMismatch(actual, e);
  throw new Undecodable(
    `converting (${actual.version}.${actual.kind}) to (${internalPackage(e.group)}.${e.kind}): unknown conversion`,
    actual,
  );
}

// The fields handlers read before storage sees the object must have their Go types.
function checkMetadata(obj: Record<string, unknown>, kind: string): void {
  const meta = obj['metadata'];
  if (meta === undefined || meta === null) return;
  if (typeof meta !== 'object' || Array.isArray(meta)) {
    throw new Error(
      `json: cannot unmarshal ${goJSONTypeName(meta)} into Go struct field ${kind}.metadata of type v1.ObjectMeta`,
    );
  }
  for (const field of ['name', 'namespace', 'generateName', 'uid', 'resourceVersion']) {
    const v = (meta as Record<string, unknown>)[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new Error(
        `json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field ObjectMeta.metadata.${field} of type string`,
      );
    }
  }
}

function structuralDecode(
  obj: Record<string, unknown>,
  raw: string | undefined,
  ctx: { actual: GroupVersionKind; opts: DecodeObjectOptions; decoded?: WeakSet<object> | undefined },
): KubeObject {
  const { actual, opts, decoded } = ctx;
  try {
    checkMetadata(obj, opts.expected.kind);
  } catch (err) {
    throw new Undecodable((err as Error).message, actual);
  }
  const decoder = opts.structural;
  if (decoder === undefined) return obj;
  const fromYAML = opts.serializer.mediaType === 'application/yaml';
  const res = decoder.decode(opts.expected, {
    value: obj,
    raw,
    fromYAML,
    fieldValidation: opts.fieldValidation,
    decoded,
  });
  if (!res.ok) throw new Undecodable(res.message, actual);
  if (res.strictErrors.length > 0) {
    if (opts.fieldValidation === 'Strict') {
      throw new Undecodable(`strict decoding error: ${res.strictErrors.join(', ')}`, actual);
    }
    if (opts.fieldValidation === 'Warn') for (const w of res.strictErrors) opts.addWarning(w);
  }
  return res.object;
}

function bodyText(body: Buffer, serializer: SerializerInfo<BodyMediaTypeName>): string {
  if (serializer.mediaType !== 'application/yaml') return body.toString('utf8');
  try {
    return yamlToJSONText(body);
  } catch (err) {
    if (err instanceof YAMLSyntaxError) throw new Undecodable(err.message);
    throw err;
  }
}

/** `raw` is the text `value` was parsed from; `decoded` as decodeServerObject takes it. */
function decodeParsed(
  input: { value: unknown; raw?: string; decoded?: WeakSet<object> | undefined },
  opts: DecodeObjectOptions,
): KubeObject {
  const { raw, decoded } = input;
  const { obj, apiVersion, kind } = interpret(input.value);
  const actual = withDefaults({ ...parseGroupVersion(apiVersion), kind }, opts.expected);
  // kube's unstructured decoder (a custom resource's codec) takes the kind from the body only.
  if (opts.unstructured === true && kind === '' && raw !== undefined)
    throw new Undecodable(`Object 'Kind' is missing in '${raw}'`, actual);
  if (checkKind(actual, opts) === 'other') {
    const other = structuralDecode(obj, raw, { actual, opts: { ...opts, structural: undefined } });
    return { ...other, apiVersion: gvString(opts.expected), kind: actual.kind };
  }
  const object = structuralDecode(obj, raw, { actual, opts, decoded });
  return { ...object, apiVersion: gvString(opts.expected), kind: opts.expected.kind };
}

/** Decodes JSON or YAML text; throws Undecodable with the codec's own message. */
export function decodeText(body: Buffer, opts: DecodeObjectOptions): KubeObject {
  const text = bodyText(body, opts.serializer);
  const parsed = parseGoJSON(text, opts.serializer.mediaType === 'application/yaml' ? undefined : body);
  if (!parsed.ok) throw new Undecodable(`couldn't get version/kind; json parse error: ${parsed.error}`);
  return decodeParsed({ value: parsed.value, raw: text }, opts);
}

/**
 * Decodes an object the server built itself as JSON (a patched object, in place of its JSON text):
 * no syntax or repeated keys to look for, but the kind, type, unknown-field and default checks
 * of a body; throws Undecodable as decodeText does. Mutates `value`, except for the parts in
 * `decoded`, taken as decoded: copies of the live object's parts, where a patch left them. What
 * this server stored went through this decode before; what another writer stored with members
 * this server does not know keeps them there, where kube's read from storage would drop them.
 */
export function decodeServerObject(
  value: unknown,
  opts: DecodeObjectOptions,
  decoded?: WeakSet<object>,
): KubeObject {
  return decodeParsed({ value, decoded }, opts);
}

// protobuf.go copyKindDefaults: a missing kind, or a missing version with its group, from the endpoint.
function copyKindDefaults(actual: GroupVersionKind, def: GroupVersionKind): GroupVersionKind {
  const out = { ...actual };
  if (out.kind === '') out.kind = def.kind;
  if (out.version === '' && def.version !== '') {
    out.group = def.group;
    out.version = def.version;
  }
  return out;
}

// schema.FromAPIVersionAndKind: an apiVersion that does not parse counts as empty.
function envelopeKind(unk: Unknown): GroupVersionKind {
  try {
    return { ...parseGroupVersion(unk.apiVersion), kind: unk.kind };
  } catch {
    return { group: '', version: '', kind: unk.kind };
  }
}

function undecodableProto<T>(fn: () => T, gvk?: GroupVersionKind): T {
  try {
    return fn();
  } catch (err) {
    throw err instanceof ProtoError ? new Undecodable(err.message, gvk) : err;
  }
}

/**
 * Decodes a kube protobuf body (runtime/serializer/protobuf) to the JSON object a client would
 * have sent, then checks it as JSON. Unknown fields are skipped: kube's protobuf decoding ignores
 * them whatever fieldValidation says.
 */
function decodeProtobuf(body: Buffer, opts: DecodeObjectOptions): KubeObject {
  const decoder = opts.protobuf;
  const definition = decoder?.definitionOf(opts.expected);
  if (decoder === undefined || definition === undefined) {
    throw unsupportedMediaTypeError(textBodySerializers.map((s) => s.mediaType));
  }
  const unk = undecodableProto(() => decoder.envelope(body));
  const actual = copyKindDefaults(envelopeKind(unk), opts.expected);
  checkKind(actual, opts);
  const obj = undecodableProto(() => decoder.toJSON(definition, unk.raw), actual);
  const ignoring: DecodeObjectOptions = { ...opts, fieldValidation: 'Ignore' };
  const object = structuralDecode(obj, JSON.stringify(obj), { actual, opts: ignoring });
  return { ...object, apiVersion: gvString(opts.expected), kind: opts.expected.kind };
}

/** A decode failure as the 400 kube answers with; other errors as they are. */
function badRequest(err: unknown, body: Buffer, opts: DecodeObjectOptions): unknown {
  if (!(err instanceof Undecodable)) return err;
  const e = opts.expected.kind;
  if (err.gvk !== undefined && err.gvk.kind !== '') {
    return newBadRequest(
      `${err.gvk.kind} in version "${err.gvk.version}" cannot be handled as a ${e}: ${err.message}`,
    );
  }
  return newBadRequest(
    `the object provided is unrecognized (must be of type ${e}): ${err.message} (${summarize(body)})`,
  );
}

/** The decoded object, with apiVersion and kind set to the endpoint's; 400 on any decode failure. */
export function decodeObject(body: Buffer, opts: DecodeObjectOptions): KubeObject {
  try {
    return opts.serializer.mediaType === 'application/vnd.kubernetes.protobuf'
      ? decodeProtobuf(body, opts)
      : decodeText(body, opts);
  } catch (err) {
    throw badRequest(err, body, opts);
  }
}

/**
 * A JSON body's text with parts cut out that repeat the live object's bytes: `text` holds `marker`'s
 * JSON in place of its `metadata.managedFields` and of each cut top-level member; `raw` (for the
 * repeated-key scan) leaves the managedFields member out and holds `{}` for each cut member.
 */
export interface CutBody {
  readonly text: string;
  readonly raw: string;
  readonly marker: string;
  /** The top-level members cut, all objects: decoded as empty objects, for the caller to complete. */
  readonly members: readonly string[];
}

const isJSONObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * decodeObject of a JSON body with parts cut out (see CutBody): the object without its
 * managedFields and with an empty object for each cut member; undefined when the cut text does not
 * parse, a marker is not where it was put (the bytes cut were another member's, or a repeated key
 * came after them) or a cut member's key came before metadata too, and the caller decodes the
 * whole body.
 */
export function decodeCutObject(
  body: Buffer,
  cut: CutBody,
  opts: DecodeObjectOptions,
): KubeObject | undefined {
  if (opts.serializer.mediaType !== 'application/json') return undefined;
  const parsed = parseGoJSON(cut.text, body);
  if (!parsed.ok || !isJSONObject(parsed.value)) return undefined;
  const top = parsed.value;
  const meta = top['metadata'];
  if (!isJSONObject(meta) || meta['managedFields'] !== cut.marker) return undefined;
  // The member was metadata's last (Go's order), and deleting the last one keeps V8's fast object.
  delete meta['managedFields'];
  // A member found before metadata repeats a cut one: the parse keeps a key where it first was.
  for (const key in top) {
    if (key === 'metadata') break;
    if (cut.members.includes(key)) return undefined;
  }
  let decoded: WeakSet<object> | undefined;
  for (const name of cut.members) {
    if (top[name] !== cut.marker) return undefined;
    // Replaced in place, so the object keeps its shape; the decoder leaves the stand-in alone.
    const standIn = {};
    top[name] = standIn;
    (decoded ??= new WeakSet()).add(standIn);
  }
  try {
    return decodeParsed({ value: top, raw: cut.raw, decoded }, opts);
  } catch (err) {
    throw badRequest(err, body, opts);
  }
}

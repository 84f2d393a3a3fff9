// Converts one protobuf message to the JSON object a Go client would have sent for the same
// struct: non-pointer zero scalars and empty lists and maps dropped (omitempty), pointers kept,
// maps from their entries, []byte as base64, the hand-converted types through their codecs.
import { decodeCodec, type NestedObjectDecoder } from './codecs.js';
import type { FieldPlan, MessagePlan, ValuePlan } from './plan.js';
import { isZeroJSON, packable, readScalar, readValue, scalarToJSON } from './scalars.js';
import { errWrongWireType, ProtoError, wireTypes, WireReader, type Tag } from './wire.js';

/** One decode: plans by definition, objects nested in RawExtensions, and how deep it has gone. */
export interface MessageContext {
  plan(definition: string): MessagePlan;
  readonly nested: NestedObjectDecoder;
  depth: number;
}

// Go's stack grows where ours does not: refuse nesting no real object has, rather than overflow.
export const maxNestingDepth = 500;

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function lengthDelimited(r: WireReader, tag: Tag, goName: string): Uint8Array {
  if (tag.wireType !== wireTypes.len) throw errWrongWireType(tag.wireType, goName);
  return r.lengthDelimited();
}

// One value; a message seen again merges into the earlier one, as gogo's Unmarshal does.
function readOne(
  r: WireReader,
  f: { value: ValuePlan; goName: string; tag: Tag; prior: unknown },
  ctx: MessageContext,
): unknown {
  const { value, goName, tag } = f;
  switch (value.kind) {
    case 'scalar':
      return scalarToJSON(readScalar(r, value.type, { wireType: tag.wireType, goName }));
    case 'message':
      return decodeMessage(lengthDelimited(r, tag, goName), value.definition, {
        ctx,
        into: isObject(f.prior) ? f.prior : {},
      });
    case 'codec':
      return decodeCodec(value.codec, lengthDelimited(r, tag, goName), ctx.nested);
  }
}

// The value an absent key or value of a map entry stands for: Go's zero value.
function zeroValue(value: ValuePlan, ctx: MessageContext): unknown {
  switch (value.kind) {
    case 'scalar':
      return value.type === 'string' || value.type === 'bytes' ? '' : value.type === 'bool' ? false : 0;
    case 'message':
      return {};
    case 'codec':
      return decodeCodec(value.codec, new Uint8Array(0), ctx.nested);
  }
}

function readMapEntry(buf: Uint8Array, field: FieldPlan, ctx: MessageContext): [string, unknown] {
  const r = new WireReader(buf, field.goName);
  let key = '';
  let value: unknown = undefined;
  while (!r.done()) {
    const tag = r.tag();
    if (tag.field === 1)
      key = readScalar(r, 'string', { wireType: tag.wireType, goName: field.goName }) as string;
    else if (tag.field === 2)
      value = readOne(r, { value: field.value, goName: field.goName, tag, prior: value }, ctx);
    else r.skip(tag.wireType);
  }
  return [key, value === undefined ? zeroValue(field.value, ctx) : value];
}

function readRepeated(r: WireReader, f: { field: FieldPlan; tag: Tag }, ctx: MessageContext): unknown[] {
  const { field, tag } = f;
  const { value } = field;
  if (value.kind === 'scalar' && packable(value.type) && tag.wireType === wireTypes.len) {
    const packed = new WireReader(r.lengthDelimited(), field.goName);
    const out: unknown[] = [];
    while (!packed.done()) out.push(scalarToJSON(readValue(packed, value.type)));
    return out;
  }
  return [readOne(r, { value, goName: field.goName, tag, prior: undefined }, ctx)];
}

function readField(
  r: WireReader,
  f: { field: FieldPlan; tag: Tag; out: JSONObject },
  ctx: MessageContext,
): void {
  const { field, tag, out } = f;
  const prior = out[field.json];
  switch (field.shape) {
    case 'single':
      if (field.inline === true && field.value.kind === 'message') {
        decodeMessage(lengthDelimited(r, tag, field.goName), field.value.definition, { ctx, into: out });
        return;
      }
      out[field.json] = readOne(r, { value: field.value, goName: field.goName, tag, prior }, ctx);
      return;
    case 'repeated': {
      const list = Array.isArray(prior) ? prior : [];
      list.push(...readRepeated(r, { field, tag }, ctx));
      out[field.json] = list;
      return;
    }
    case 'map': {
      const map = isObject(prior) ? prior : {};
      const [key, value] = readMapEntry(lengthDelimited(r, tag, field.goName), field, ctx);
      // Defined, not assigned: a key such as "__proto__" is data here.
      Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
      out[field.json] = map;
      return;
    }
  }
}

// What Go's encoding/json with `omitempty` leaves out; structs (messages, codecs) are always written.
function dropOmitted(out: JSONObject, plan: MessagePlan): void {
  for (const field of plan.fields.values()) {
    if (field.keepZero || !(field.json in out)) continue;
    const v = out[field.json];
    const empty =
      field.shape === 'repeated'
        ? Array.isArray(v) && v.length === 0
        : field.shape === 'map'
          ? isObject(v) && Object.keys(v).length === 0
          : field.value.kind === 'scalar' && isZeroJSON(v);
    if (empty) Reflect.deleteProperty(out, field.json);
  }
}

/** The JSON object of a message of `definition`; throws ProtoError on malformed bytes. */
export function decodeMessage(
  buf: Uint8Array,
  definition: string,
  opts: { ctx: MessageContext; into?: JSONObject },
): JSONObject {
  const { ctx } = opts;
  const plan = ctx.plan(definition);
  if (ctx.depth >= maxNestingDepth)
    throw new ProtoError(`proto: messages nested more than ${maxNestingDepth} deep`);
  ctx.depth++;
  try {
    const out = opts.into ?? {};
    const r = new WireReader(buf, plan.name);
    while (!r.done()) {
      const tag = r.tag();
      const field = plan.fields.get(tag.field);
      // A field number the table does not know is skipped, as gogo's generated Unmarshal does
      // (skipGenerated): the tables follow k8s.io/api 1.33's generated.proto field for field, so
      // such a field is one a newer client knows and this version does not, and protobuf has no
      // strict decoding in kube.
      if (field === undefined) {
        r.skip(tag.wireType);
        continue;
      }
      readField(r, { field, tag, out }, ctx);
    }
    dropOmitted(out, plan);
    return out;
  } finally {
    ctx.depth--;
  }
}

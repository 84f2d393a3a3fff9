// Encodes a JSON object as the protobuf message gogo would write for it, driven by the same
// message plans the decoder reads: for tests that send every field of a kind as protobuf and
// compare what comes back with the JSON form. A JSON member without a field number throws, so
// a table that lacks a field of its schema is named rather than lost.
import type { Scheme } from '../../../api/scheme.js';
import { isProtobufCodec, type ProtobufCodec } from '../../../api/schema/protobuf.js';
import { compileMessagePlan, type FieldPlan, type MessagePlan, type ValuePlan } from '../plan.js';
import { pb, ProtoWriter } from './proto-writer.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const durationUnits: Readonly<Record<string, bigint>> = {
  h: 3_600_000_000_000n,
  m: 60_000_000_000n,
  s: 1_000_000_000n,
  ms: 1_000_000n,
};

/** Whole-unit Go durations ("1h2m3s", "1m0s", "500ms"): what the tests write. */
function parseDuration(text: string): bigint {
  let ns = 0n;
  const re = /(\d+)(ms|h|m|s)/gy;
  let matched = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    ns += BigInt(m[1] ?? '0') * (durationUnits[m[2] ?? ''] ?? 0n);
    matched = re.lastIndex;
  }
  if (matched !== text.length || text === '') throw new Error(`not a whole-unit duration: ${text}`);
  return ns;
}

function timestamp(text: string): ProtoWriter {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`not a time: ${text}`);
  const fractionText = /\.(\d+)Z$/.exec(text)?.[1] ?? '';
  const nanos = Number(fractionText.padEnd(9, '0').slice(0, 9));
  return pb()
    .varint(1, BigInt(Math.floor(ms / 1000)))
    .varint(2, nanos);
}

function codecMessage(codec: ProtobufCodec, v: unknown): ProtoWriter {
  switch (codec) {
    case 'time':
    case 'microTime':
      return timestamp(String(v));
    case 'duration':
      return pb().varint(1, parseDuration(String(v)));
    case 'intOrString':
      return typeof v === 'number' ? pb().varint(1, 0).varint(2, v) : pb().varint(1, 1).string(3, String(v));
    case 'quantity':
      return pb().string(1, String(v));
    case 'rawExtension':
    case 'fieldsV1':
      return pb().bytes(1, Buffer.from(JSON.stringify(v)));
    case 'extraValue': {
      const w = pb();
      for (const item of v as unknown[]) w.string(1, String(item));
      return w;
    }
  }
}

export class PlanEncoder {
  readonly #scheme: Scheme;
  readonly #plans = new Map<string, MessagePlan>();

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
  }

  /** The message of `definition` holding `obj`; throws on a member the table has no number for. */
  encode(definition: string, obj: JSONObject): ProtoWriter {
    const known = new Set<string>(['apiVersion', 'kind', ...this.#jsonNames(definition)]);
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) throw new Error(`${definition}.${key} has no protobuf field number`);
    }
    return this.#message(definition, obj);
  }

  // The members a message holds, those of the structs it embeds (inline) included.
  #jsonNames(definition: string): string[] {
    return [...this.#plan(definition).fields.values()].flatMap((f) =>
      f.inline === true && f.value.kind === 'message' ? this.#jsonNames(f.value.definition) : [f.json],
    );
  }

  #message(definition: string, obj: JSONObject): ProtoWriter {
    const w = pb();
    const fields = [...this.#plan(definition).fields.entries()].sort(([a], [b]) => a - b);
    for (const [number, field] of fields) {
      if (field.inline === true && field.value.kind === 'message') {
        w.message(number, this.#message(field.value.definition, obj));
        continue;
      }
      const value = obj[field.json];
      // gogo writes a Time held by value whatever it holds: the zero time (null, or absent) as
      // the field with an empty message (meta/v1 time_proto.go); a nil *Time is left out.
      if ((value === undefined || value === null) && this.#zeroTimeWritten(definition, field)) {
        w.message(number, pb());
        continue;
      }
      this.#field(w, { number, field, value });
    }
    return w;
  }

  #field(w: ProtoWriter, f: { number: number; field: FieldPlan; value: unknown }): void {
    const { number, field, value } = f;
    if (value === undefined || value === null) return;
    switch (field.shape) {
      case 'repeated':
        for (const item of value as unknown[]) this.#value(w, number, field.value, item);
        return;
      case 'map':
        for (const [key, item] of Object.entries(value as JSONObject)) {
          const entry = pb().string(1, key);
          this.#value(entry, 2, field.value, item);
          w.message(number, entry);
        }
        return;
      case 'single':
        this.#value(w, number, field.value, value);
        return;
    }
  }

  #value(w: ProtoWriter, number: number, plan: ValuePlan, v: unknown): void {
    switch (plan.kind) {
      case 'message':
        if (!isObject(v)) throw new Error(`field ${number}: ${plan.definition} wants an object`);
        w.message(number, this.encode(plan.definition, v));
        return;
      case 'codec':
        w.message(number, codecMessage(plan.codec, v));
        return;
      case 'scalar':
        switch (plan.type) {
          case 'string':
            w.string(number, String(v));
            return;
          case 'bytes':
            w.bytes(number, Buffer.from(String(v), 'base64'));
            return;
          case 'int32':
          case 'int64':
            w.varint(number, BigInt(v as number));
            return;
          case 'bool':
            w.bool(number, v === true);
            return;
          case 'double':
            w.double(number, v as number);
            return;
          case 'float':
            w.float(number, v as number);
            return;
        }
    }
  }

  #zeroTimeWritten(definition: string, field: FieldPlan): boolean {
    if (field.shape !== 'single' || field.value.kind !== 'codec') return false;
    if (field.value.codec !== 'time' && field.value.codec !== 'microTime') return false;
    const table = this.#scheme.protobuf(definition);
    const spec = table === undefined || isProtobufCodec(table) ? undefined : table[field.json];
    return typeof spec === 'number' || (spec !== undefined && spec.pointer !== true);
  }

  #plan(definition: string): MessagePlan {
    let plan = this.#plans.get(definition);
    if (plan === undefined) {
      plan = compileMessagePlan(this.#scheme, definition);
      this.#plans.set(definition, plan);
    }
    return plan;
  }
}

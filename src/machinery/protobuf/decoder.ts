// Decodes kube protobuf bodies (application/vnd.kubernetes.protobuf) of the Scheme's kinds into
// the JSON objects a client would have sent, for the same structural checks JSON bodies get.
import { parseAPIVersion, type Scheme } from '../../api/scheme.js';
import { isProtobufCodec } from '../../api/schema/protobuf.js';
import { decodeEnvelope, type Unknown } from './envelope.js';
import { decodeMessage, type MessageContext } from './message.js';
import { compileMessagePlan, type MessagePlan } from './plan.js';
import { ProtoError } from './wire.js';

type GVK = { readonly group: string; readonly version: string; readonly kind: string };

export class ProtobufDecoder {
  readonly #scheme: Scheme;
  readonly #plans = new Map<string, MessagePlan>();

  constructor(scheme: Scheme) {
    this.#scheme = scheme;
  }

  /** The definition of a kind that has a protobuf message table; undefined for any other kind. */
  definitionOf(gvk: GVK): string | undefined {
    const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
    const definition = this.#scheme.kindFor(apiVersion, gvk.kind)?.definition;
    if (definition === undefined) return undefined;
    const info = this.#scheme.protobuf(definition);
    return info === undefined || isProtobufCodec(info) ? undefined : definition;
  }

  /** The `k8s\0` prefix and runtime.Unknown envelope; ProtoError with kube's text when malformed. */
  envelope(body: Uint8Array): Unknown {
    return decodeEnvelope(body);
  }

  /** `raw` as a message of `definition`, in JSON form; ProtoError when malformed. */
  toJSON(definition: string, raw: Uint8Array): Record<string, unknown> {
    const ctx: MessageContext = {
      plan: (name) => this.#plan(name),
      nested: (data) => this.#nestedObject(data, ctx),
      depth: 0,
    };
    return decodeMessage(raw, definition, { ctx });
  }

  #plan(definition: string): MessagePlan {
    let plan = this.#plans.get(definition);
    if (plan === undefined) {
      plan = compileMessagePlan(this.#scheme, definition);
      this.#plans.set(definition, plan);
    }
    return plan;
  }

  // An object nested in a RawExtension as protobuf: its own envelope names its kind.
  #nestedObject(data: Uint8Array, ctx: MessageContext): Record<string, unknown> {
    const unk = decodeEnvelope(data);
    const gv = parseAPIVersion(unk.apiVersion);
    const definition = gv === undefined ? undefined : this.definitionOf({ ...gv, kind: unk.kind });
    if (definition === undefined) {
      throw new ProtoError(`no kind "${unk.kind}" is registered for protobuf in version "${unk.apiVersion}"`);
    }
    return { apiVersion: unk.apiVersion, kind: unk.kind, ...decodeMessage(unk.raw, definition, { ctx }) };
  }
}

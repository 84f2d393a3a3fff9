// Reads and decodes a create or update body for a route's kind.
import type { KubeObject } from '../../api/meta.js';
import { isDecodeDefaulter, isGroupVersionAcceptor } from '../../registry/rest/capabilities.js';
import type { FieldValidation } from '../../registry/rest/options.js';
import type { BodyMediaTypeName, SerializerInfo } from '../negotiation/media-types.js';
import {
  decodeCutObject,
  decodeObject,
  type CutBody,
  type DecodeObjectOptions,
} from '../request/decode-object.js';
import type { HandlerRequest, RequestScope } from './request-scope.js';

/** The other versions a route's storage takes bodies in (pods/eviction: policy/v1beta1 too). */
function acceptorOf(scope: RequestScope): ((gv: { group: string; version: string }) => boolean) | undefined {
  const storage = scope.storage;
  return isGroupVersionAcceptor(storage) ? (gv) => storage.acceptsGroupVersion(gv) : undefined;
}

interface BodyInput {
  readonly body: Buffer;
  readonly serializer: SerializerInfo<BodyMediaTypeName>;
  readonly fieldValidation: FieldValidation;
}

function decodeOptions(scope: RequestScope, hr: HandlerRequest, input: BodyInput): DecodeObjectOptions {
  return {
    expected: scope.kind,
    serializer: input.serializer,
    fieldValidation: input.fieldValidation,
    kinds: scope.config.kinds,
    structural: scope.config.structural,
    protobuf: scope.config.protobuf,
    addWarning: (text) => {
      hr.ex.warnings.add(text);
    },
    accepts: acceptorOf(scope),
    unstructured: scope.config.unstructured,
  };
}

export function decodeBody(scope: RequestScope, hr: HandlerRequest, input: BodyInput): KubeObject {
  const obj = decodeObject(input.body, decodeOptions(scope, hr, input));
  defaultDecoded(scope, obj);
  hr.audit?.logRequestObject?.(obj);
  return obj;
}

/**
 * decodeBody of a JSON body with the parts that repeat the live object's cut out (live-cut.ts): the
 * object without them, or undefined when the cut does not hold and the whole body must be decoded. Not
 * for audited requests (the caller's check): their request object is logged as decoded.
 */
export function decodeCutBody(
  scope: RequestScope,
  hr: HandlerRequest,
  input: BodyInput & { readonly cut: CutBody },
): KubeObject | undefined {
  const obj = decodeCutObject(input.body, input.cut, decodeOptions(scope, hr, input));
  if (obj !== undefined) defaultDecoded(scope, obj);
  return obj;
}

/** The route's DecodeDefaulting, as kube's decoder defaults every body it decodes. */
export function defaultDecoded(scope: RequestScope, obj: KubeObject): void {
  if (isDecodeDefaulter(scope.storage)) scope.storage.defaultDecoded(obj);
}

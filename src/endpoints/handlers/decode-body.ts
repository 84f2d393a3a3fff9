// Reads and decodes a create or update body for a route's kind.
import type { KubeObject } from '../../api/meta.js';
import { isDecodeDefaulter, isGroupVersionAcceptor } from '../../registry/rest/capabilities.js';
import type { FieldValidation } from '../../registry/rest/options.js';
import type { BodyMediaTypeName, SerializerInfo } from '../negotiation/media-types.js';
import { decodeObject } from '../request/decode-object.js';
import type { HandlerRequest, RequestScope } from './request-scope.js';

/** The other versions a route's storage takes bodies in (pods/eviction: policy/v1beta1 too). */
function acceptorOf(scope: RequestScope): ((gv: { group: string; version: string }) => boolean) | undefined {
  const storage = scope.storage;
  return isGroupVersionAcceptor(storage) ? (gv) => storage.acceptsGroupVersion(gv) : undefined;
}

export function decodeBody(
  scope: RequestScope,
  hr: HandlerRequest,
  input: { body: Buffer; serializer: SerializerInfo<BodyMediaTypeName>; fieldValidation: FieldValidation },
): KubeObject {
  const obj = decodeObject(input.body, {
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
  });
  defaultDecoded(scope, obj);
  hr.audit?.logRequestObject?.(obj);
  return obj;
}

/** The route's DecodeDefaulting, as kube's decoder defaults every body it decodes. */
export function defaultDecoded(scope: RequestScope, obj: KubeObject): void {
  if (isDecodeDefaulter(scope.storage)) scope.storage.defaultDecoded(obj);
}

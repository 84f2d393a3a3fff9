// PUT of a whole object (handlers/update.go UpdateResource): 200, or 201 when it created one.
import type { KubeObject } from '../../api/meta.js';
import type { VerbOptions } from '../../admission/attributes.js';
import {
  admittingObjectInfo,
  updateValidations,
  type RouteAdmission,
} from '../../admission/route-admission.js';
import { isUpdater, type UpdatedObjectInfo, type UpdateRequest } from '../../registry/rest/capabilities.js';
import {
  ensureObjectNamespaceMatchesRequestNamespace,
  expectedNamespaceForResource,
} from '../../registry/rest/meta.js';
import { header } from '../http-types.js';
import { negotiateInputSerializer, negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { readBody } from '../request/read-body.js';
import { decodeWriteOptions } from '../request/write-options.js';
import { withManagedFields } from '../fieldmanager/managed-storage.js';
import { fieldManagerFor, requestManager } from '../fieldmanager/request-field-manager.js';
import type { RequestContext } from '../../registry/rest/context.js';
import type { BodyMediaTypeName, SerializerInfo } from '../negotiation/media-types.js';
import { decodeBody, decodeCutBody } from './decode-body.js';
import { cachedLiveJSON, completingFromLive, cutLive, type LiveCut } from './live-cut.js';
import { checkName, metaOf } from './object-meta.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';
import { writeResult } from './transform.js';

/**
 * rest.DefaultUpdatedObjectInfo: the decoded body, with its uid as a precondition. A try may change
 * the object it gets, so the first try gets the body itself and a retry (after a conflict) a fresh
 * decode of it, rather than every try a copy. A body decoded incomplete (`completes`: without the
 * parts it repeats from the live object) goes to the first try that can complete it from its live
 * object; a try that cannot decodes the whole body.
 */
export function defaultUpdatedObjectInfo(
  obj: KubeObject,
  decodeAgain: () => KubeObject,
  completes?: (obj: KubeObject, old: KubeObject | null) => boolean,
): UpdatedObjectInfo {
  const uid = obj.metadata?.uid ?? '';
  let handedOut = false;
  return {
    preconditions: () => (uid === '' ? undefined : { uid }),
    readsOldOnly: true,
    updatedObject: (_ctx, old) => {
      if (handedOut || (completes !== undefined && !completes(obj, old)))
        return Promise.resolve(decodeAgain());
      handedOut = true;
      return Promise.resolve(obj);
    },
  };
}

/**
 * kube's update and patch handlers' admission: mutating admission on the object each try computes
 * (after managedFields are brought up to date), validating admission as the Store's create and
 * update validation hooks.
 */
export function admittedUpdate(
  admission: RouteAdmission | undefined,
  objInfo: UpdatedObjectInfo,
  call: { name: string; options: VerbOptions },
): Pick<UpdateRequest, 'objInfo' | 'createValidation' | 'updateValidation'> {
  if (admission === undefined) return { objInfo };
  return { objInfo: admittingObjectInfo(admission, objInfo, call), ...updateValidations(admission, call) };
}

const minCutBodyBytes = 4096;

/**
 * The body without the parts that repeat the live object's bytes (live-cut.ts), for an unaudited
 * JSON PUT of a named object the watch cache holds.
 */
async function liveCut(
  scope: Parameters<Handler>[0],
  hr: Parameters<Handler>[1],
  req: { ctx: RequestContext; body: Buffer; serializer: SerializerInfo<BodyMediaTypeName> },
): Promise<LiveCut | undefined> {
  if (hr.audit !== undefined || req.serializer.mediaType !== 'application/json') return undefined;
  // A small body parses in less time than the live object's lookup takes.
  if (req.body.length < minCutBodyBytes) return undefined;
  const live = await cachedLiveJSON(scope.storage, req.ctx, hr.info.name);
  return live === undefined ? undefined : cutLive(req.body, live);
}

export const updateResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isUpdater(storage)) throw new Error('route installed without an updater');
  const { ex, info } = hr;
  const namespace = requestNamespace(scope, info);
  const media = negotiateOutputMediaType(header(ex.req, 'accept'), scope.restrictions);
  const body = await readBody(ex.req, scope.config.maxRequestBodyBytes);
  const { options, fieldValidation } = decodeWriteOptions(ex.url.searchParams, 'UpdateOptions');
  const serializer = negotiateInputSerializer(header(ex.req, 'content-type'));
  const decode = (): KubeObject => decodeBody(scope, hr, { body, serializer, fieldValidation });
  const ctx = requestContext(hr, namespace);
  const cut = await liveCut(scope, hr, { ctx, body, serializer });
  const cutObj = cut && decodeCutBody(scope, hr, { body, serializer, fieldValidation, cut });
  const obj = cutObj ?? decode();
  ensureObjectNamespaceMatchesRequestNamespace(
    expectedNamespaceForResource(namespace, scope.resource),
    metaOf(obj),
  );
  checkName(obj, info.name, namespace);
  let objInfo = defaultUpdatedObjectInfo(
    obj,
    decode,
    cut === undefined || cutObj === undefined ? undefined : completingFromLive(cut),
  );
  const fieldManager = fieldManagerFor(scope);
  if (fieldManager !== undefined)
    objInfo = withManagedFields(objInfo, { fieldManager, manager: requestManager(hr, options) });
  const { object, created } = await storage.update(ctx, info.name, {
    ...admittedUpdate(scope.admission, objInfo, { name: info.name, options }),
    options,
    handsOverResult: true,
  });
  writeResult(scope, hr, { code: created ? 201 : 200, media, ctx, result: object });
};

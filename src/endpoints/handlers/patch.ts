// PATCH (handlers/patch.go PatchResource). The patch is applied to the current object inside the
// storage's update, so a conflicting write retries it on the fresh object, as kube's patcher does.
import type { KubeObject, ManagedFieldsEntry } from '../../api/meta.js';
import { newConflict, newInvalid, newNotFound } from '../../machinery/errors/index.js';
import { FieldError, newPath } from '../../machinery/validation/index.js';
import { parseWellFormed } from '../../machinery/json/well-formed.js';
import { withNumberLiterals } from '../../machinery/structural/number-literal.js';
import { isPatcher, type UpdatedObjectInfo } from '../../registry/rest/capabilities.js';
import { header } from '../http-types.js';
import { routeUnsupportedMediaType, unsupportedMediaTypeError } from '../negotiation/errors.js';
import { isPatchType, jsonSerializer, type PatchType } from '../negotiation/media-types.js';
import { negotiateOutputMediaType } from '../negotiation/negotiate.js';
import { decodeServerObject, Undecodable } from '../request/decode-object.js';
import { readBody } from '../request/read-body.js';
import { decodePatchOptions } from '../request/write-options.js';
import { withoutManagedFields } from '../fieldmanager/field-manager.js';
import { fieldManagerFor, requestManager } from '../fieldmanager/request-field-manager.js';
import { jsonPatchMechanism } from './json-patch.js';
import { mergePatchMechanism } from './merge-patch.js';
import { defaultDecoded } from './decode-body.js';
import { checkName } from './object-meta.js';
import type { PatchMechanism } from './patch-mechanism.js';
import {
  qualifiedResource,
  requestContext,
  requestNamespace,
  type Handler,
  type HandlerRequest,
  type RequestScope,
} from './request-scope.js';
import { writeResult } from './transform.js';
import { admittedUpdate } from './update.js';

// The patcher re-applies the patch when a concurrent write wins; it gives up after this many
// retries (kube's maxRetryWhenPatchConflicts) with the optimistic-lock conflict.
const maxRetryWhenPatchConflicts = 5;
const optimisticLockMessage =
  'the object has been modified; please apply your changes to the latest version and try again';

const builtin: Partial<Record<PatchType, PatchMechanism>> = {
  'application/json-patch+json': jsonPatchMechanism,
  'application/merge-patch+json': mergePatchMechanism,
};

function mechanismFor(
  scope: RequestScope,
  contentType: string,
): { type: PatchType; mechanism: PatchMechanism } {
  const idx = contentType.indexOf(';');
  const base = idx > 0 ? contentType.slice(0, idx) : contentType;
  if (!isPatchType(base)) throw routeUnsupportedMediaType();
  const supported = (m: PatchMechanism | undefined): m is PatchMechanism =>
    m !== undefined && (m.supports?.(scope.kind) ?? true);
  const configured = scope.config.patchMechanisms;
  const mechanism = configured[base] ?? builtin[base];
  if (supported(mechanism)) return { type: base, mechanism };
  // The refusal lists what the kind takes: built-in types first, then the configured ones.
  const types: string[] = [];
  for (const [type, m] of Object.entries({ ...builtin, ...configured })) if (supported(m)) types.push(type);
  throw unsupportedMediaTypeError(types);
}

/**
 * The patched object, and the text kube quotes when it does not decode. A patch that leaves
 * managedFields alone is applied to the object without them (`kept`, to be put back after the
 * decode); the text quoted is still the whole object's.
 */
function applyPatch(
  mechanism: PatchMechanism,
  prepared: unknown,
  current: KubeObject,
): {
  patched: unknown;
  /** Parts of `patched` that are copies of the current object's (PatchMechanism.applyObject). */
  shared: WeakSet<object> | undefined;
  shown: () => string;
  kept: readonly ManagedFieldsEntry[] | undefined;
  /** PatchMechanism.numberText of the same inputs. */
  numberText: string | undefined;
} {
  const meta = current.metadata;
  const kept =
    meta?.managedFields !== undefined && mechanism.keepsManagedFields?.(prepared) === true
      ? meta.managedFields
      : undefined;
  const base = kept === undefined ? current : withoutManagedFields(current);
  if (mechanism.applyObject !== undefined) {
    const shared = new WeakSet<object>();
    const patched = mechanism.applyObject(prepared, base, shared);
    // Only a failure needs the text: apply gives it again from the same untouched inputs.
    return {
      patched,
      shared,
      shown: () => mechanism.describe?.(prepared) ?? mechanism.apply(prepared, current),
      kept,
      numberText: mechanism.numberText?.(prepared, base),
    };
  }
  const text = mechanism.apply(prepared, base);
  return {
    patched: parseWellFormed(text),
    shared: undefined,
    shown: () =>
      mechanism.describe?.(prepared) ?? (kept === undefined ? text : mechanism.apply(prepared, current)),
    kept,
    numberText: mechanism.numberText?.(prepared, base),
  };
}

// The patched object decoded as the kind; kube reports a failure here as an Invalid `patch` field.
// The server built it, so only the checks of its content run (decodeServerObject).
function decodePatched(
  scope: RequestScope,
  hr: HandlerRequest,
  input: {
    patched: unknown;
    shared: WeakSet<object> | undefined;
    shown: () => string;
    fieldValidation: 'Ignore' | 'Warn' | 'Strict';
  },
): KubeObject {
  try {
    const obj = decodeServerObject(
      input.patched,
      {
        expected: scope.kind,
        serializer: jsonSerializer,
        fieldValidation: input.fieldValidation,
        kinds: scope.config.kinds,
        structural: scope.config.structural,
        addWarning: (w) => {
          hr.ex.warnings.add(w);
        },
        unstructured: scope.config.unstructured,
      },
      input.shared,
    );
    defaultDecoded(scope, obj);
    return obj;
  } catch (err) {
    if (!(err instanceof Undecodable)) throw err;
    throw newInvalid({ group: '', kind: '' }, '', [
      FieldError.invalid(newPath('patch'), input.shown(), err.message),
    ]);
  }
}

export const patchResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isPatcher(storage)) throw new Error('route installed without a patcher');
  const { ex, info } = hr;
  const { type, mechanism } = mechanismFor(scope, header(ex.req, 'content-type'));
  const namespace = requestNamespace(scope, info);
  const media = negotiateOutputMediaType(header(ex.req, 'accept'), scope.restrictions);
  const patch = await readBody(ex.req, scope.config.maxRequestBodyBytes);
  const isApply = type === 'application/apply-patch+yaml';
  const { options, fieldValidation, force } = decodePatchOptions(ex.url.searchParams, isApply);
  // The bytes as sent, once the options are accepted and before the patch is parsed or applied
  // (kube's audit.LogRequestPatch).
  hr.audit?.logRequestPatch?.(patch);
  const manager = requestManager(hr, options);
  const addWarning = (w: string): void => {
    ex.warnings.add(w);
  };
  const context = {
    kind: scope.kind,
    subresource: scope.subresource,
    fieldManager: manager,
    force: force ?? false,
    addWarning,
  };
  const prepared = mechanism.prepare({ patch, fieldValidation, context });
  const fieldManager = mechanism.managesFields === true ? undefined : fieldManagerFor(scope);
  let attempts = 0;
  const objInfo: UpdatedObjectInfo = {
    preconditions: () => undefined,
    // Every mechanism's applyObject leaves the current object alone and returns a fresh one.
    readsOldOnly: true,
    // Called again on every retry of the storage's update, with the object as it is then.
    updatedObject: (_ctx, old) =>
      new Promise<KubeObject>((resolve) => {
        // Only apply creates (createNewObject): it applies to a new empty object.
        if (old === null && !isApply) throw newNotFound(qualifiedResource(scope), info.name);
        if (++attempts > maxRetryWhenPatchConflicts + 1)
          throw newConflict(qualifiedResource(scope), info.name, optimisticLockMessage);
        const current = old ?? storage.newObject();
        const { patched, shared, shown, kept, numberText } = applyPatch(mechanism, prepared, current);
        const literals =
          numberText === undefined
            ? undefined
            : scope.config.structural?.numberLiterals?.(scope.kind, numberText);
        if (literals !== undefined) withNumberLiterals(patched, literals);
        let obj = decodePatched(scope, hr, { patched, shared, shown, fieldValidation });
        // The live entries, only read from here on (the field manager replaces the list).
        if (kept !== undefined) (obj.metadata ??= {}).managedFields = [...kept];
        if (fieldManager !== undefined) obj = fieldManager.updateNoErrors(current, obj, manager);
        checkName(obj, info.name, namespace);
        resolve(obj);
      }),
  };
  const ctx = requestContext(hr, namespace);
  const { object, created } = await storage.update(ctx, info.name, {
    ...admittedUpdate(scope.admission, objInfo, { name: info.name, options }),
    options,
    forceAllowCreate: isApply,
    handsOverResult: true,
  });
  writeResult(scope, hr, { code: created ? 201 : 200, media, ctx, result: object });
};

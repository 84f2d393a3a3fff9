// The values a policy's expressions read (k8s.io/apiserver/pkg/admission/plugin/cel: the
// AdmissionRequest of CreateAdmissionRequest, CreateNamespaceObject), as CEL values.
import type { Namespace } from '../../../../api/core/v1/namespace.js';
import type { KubeObject } from '../../../../api/meta.js';
import { toCel } from '../../../../registry/apiextensions/customresource/cel/values.js';
import type { Attributes } from '../../../attributes.js';
import type { Activation } from './validator.js';

/**
 * admissionv1.AdmissionRequest without the objects, Go's omitempty fields left out when empty;
 * `requested` is the request as it came when `a` is it at an equivalent resource's version.
 */
export function admissionRequest(a: Attributes, requested: Attributes = a): Record<string, unknown> {
  const kind = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  const resource = { group: a.resource.group, version: a.resource.version, resource: a.resource.resource };
  const r = requested;
  const requestKind = { group: r.kind.group, version: r.kind.version, kind: r.kind.kind };
  const requestResource = {
    group: r.resource.group,
    version: r.resource.version,
    resource: r.resource.resource,
  };
  const user = a.userInfo;
  return {
    uid: '',
    kind,
    resource,
    ...(a.subresource === '' ? {} : { subResource: a.subresource }),
    requestKind,
    requestResource,
    ...(a.subresource === '' ? {} : { requestSubResource: a.subresource }),
    ...(a.name === '' ? {} : { name: a.name }),
    ...(a.namespace === '' ? {} : { namespace: a.namespace }),
    operation: a.operation,
    userInfo: {
      username: user.name,
      ...(user.uid === undefined || user.uid === '' ? {} : { uid: user.uid }),
      ...(user.groups.length === 0 ? {} : { groups: user.groups }),
      ...(user.extra === undefined ? {} : { extra: user.extra }),
    },
    dryRun: a.dryRun,
  };
}

const metaKeys = [
  'name',
  'generateName',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
] as const;

/** CreateNamespaceObject: the namespace's spec, status and a part of its metadata. */
export function namespaceObject(ns: Namespace | undefined): Record<string, unknown> | null {
  if (ns === undefined) return null;
  const meta: Record<string, unknown> = {};
  const source = (ns.metadata ?? {}) as Record<string, unknown>;
  for (const k of metaKeys) if (source[k] !== undefined) meta[k] = source[k];
  return { metadata: meta, spec: ns.spec ?? {}, status: ns.status ?? {} };
}

/** The activation of one evaluation. */
export function activationOf(opts: {
  attributes: Attributes;
  param: KubeObject | null;
  namespace: Record<string, unknown> | null;
  request: Record<string, unknown>;
}): Activation {
  const a = opts.attributes;
  return {
    object: toCel(a.object, undefined),
    oldObject: toCel(a.oldObject, undefined),
    request: toCel(opts.request, undefined),
    params: toCel(opts.param, undefined),
    namespaceObject: toCel(opts.namespace, undefined),
  };
}

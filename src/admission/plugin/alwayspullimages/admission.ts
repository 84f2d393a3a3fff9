// AlwaysPullImages (plugin/pkg/admission/alwayspullimages): every container of a new pod, and of a
// pod update that brings an image the pod did not have, gets imagePullPolicy Always, so a node
// never starts a private image another tenant pulled without credentials. Validation refuses a pod
// a later mutation set back.
import type { Container } from '../../../api/core/v1/container.js';
import type { PodSpec } from '../../../api/core/v1/pod.js';
import type { KubeObject } from '../../../api/meta.js';
import { newInternalError } from '../../../machinery/errors/index.js';
import type { RequestContext } from '../../../registry/rest/context.js';
import type { Attributes } from '../../attributes.js';
import { newAdmissionForbidden } from '../../errors.js';
import { handlesOnly, type MutationInterface, type ValidationInterface } from '../../interfaces.js';

export const alwaysPullImagesPluginName = 'AlwaysPullImages';

const specOf = (obj: KubeObject | null): Partial<PodSpec> | undefined =>
  (obj as { spec?: Partial<PodSpec> } | null)?.spec;

/** pods.VisitContainersWithPath: init containers, containers, then ephemeral containers. */
function visitContainers(spec: Partial<PodSpec>, visit: (c: Container, path: string) => void): void {
  (spec.initContainers ?? []).forEach((c, i) => {
    visit(c, `spec.initContainers[${i}]`);
  });
  (spec.containers ?? []).forEach((c, i) => {
    visit(c, `spec.containers[${i}]`);
  });
  (spec.ephemeralContainers ?? []).forEach((c, i) => {
    visit(c, `spec.ephemeralContainers[${i}]`);
  });
}

function isUpdateWithNoNewImages(a: Attributes): boolean {
  if (a.operation !== 'UPDATE') return false;
  const spec = specOf(a.object);
  const old = specOf(a.oldObject);
  if (spec === undefined || old === undefined) return false;
  const oldImages = new Set<string | undefined>();
  visitContainers(old, (c) => oldImages.add(c.image));
  let fresh = false;
  visitContainers(spec, (c) => {
    if (!oldImages.has(c.image)) fresh = true;
  });
  return !fresh;
}

const shouldIgnore = (a: Attributes): boolean =>
  a.subresource !== '' ||
  a.resource.group !== '' ||
  a.resource.resource !== 'pods' ||
  isUpdateWithNoNewImages(a);

export class AlwaysPullImages implements MutationInterface, ValidationInterface {
  readonly handles = handlesOnly('CREATE', 'UPDATE');
  readonly resources: ReadonlySet<string> = new Set(['pods']);

  admit(_ctx: RequestContext, a: Attributes): Promise<void> {
    const spec = specOf(a.object);
    if (shouldIgnore(a) || spec === undefined) return Promise.resolve();
    visitContainers(spec, (c) => {
      c.imagePullPolicy = 'Always';
    });
    return Promise.resolve();
  }

  validate(_ctx: RequestContext, a: Attributes): Promise<void> {
    const spec = specOf(a.object);
    if (shouldIgnore(a) || spec === undefined) return Promise.resolve();
    const errs: Error[] = [];
    visitContainers(spec, (c, path) => {
      if (c.imagePullPolicy === 'Always') return;
      const value = JSON.stringify(c.imagePullPolicy ?? '');
      errs.push(
        newAdmissionForbidden(
          a,
          `${path}.imagePullPolicy: Unsupported value: ${value}: supported values: "Always"`,
        ),
      );
    });
    if (errs.length === 0) return Promise.resolve();
    // kube hands back an aggregate of Forbidden errors; more than one is no longer a Status of its own.
    if (errs.length === 1) return Promise.reject(errs[0] ?? new Error('unreachable'));
    return Promise.reject(newInternalError(new Error(`[${errs.map((e) => e.message).join(', ')}]`)));
  }
}

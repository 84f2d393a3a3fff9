// validateWindowsHostProcessPod (pkg/apis/core/validation/validation.go): a container's
// windowsOptions.hostProcess agrees with the pod's, and a pod with any HostProcess container has only
// such containers and the host's network. kube's third check, "hostProcess containers are disallowed
// by cluster policy", never fires here: Capstan allows privileged containers (--allow-privileged).
import type { Container } from '../../../../api/core/v1/container.js';
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';

/** A hostProcess flag; a JSON null is a nil pointer, as a missing member is. */
function flag(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** The lists podshelper.VisitContainersWithPath walks, in its order. */
const visited = ['initContainers', 'containers', 'ephemeralContainers'] as const;

export function validateWindowsHostProcessPod(spec: PodSpec, path: FieldPath): ErrorList {
  const pod = flag(spec.securityContext?.windowsOptions?.hostProcess);
  let errs: ErrorList | undefined;
  let count = 0;
  let hostProcessCount = 0;
  // Plain loops: most pods set no hostProcess at all, and this costs them no allocation.
  for (const list of visited) {
    const containers: readonly Pick<Container, 'securityContext'>[] = spec[list] ?? [];
    for (let i = 0; i < containers.length; i++) {
      count++;
      const own = flag(containers[i]?.securityContext?.windowsOptions?.hostProcess);
      if (pod !== undefined && own !== undefined && pod !== own) {
        errs ??= [];
        errs.push(
          FieldError.invalid(
            path.child(list).index(i).child('securityContext', 'windowsOptions', 'hostProcess'),
            own,
            `pod hostProcess value must be identical if both are specified, was ${pod}`,
          ),
        );
      }
      if (own === true || (own === undefined && pod === true)) hostProcessCount++;
    }
  }
  if (hostProcessCount === 0) return errs ?? [];
  errs ??= [];
  if (hostProcessCount !== count)
    errs.push(
      FieldError.invalid(
        path,
        '',
        'If pod contains any hostProcess containers then all containers must be HostProcess containers',
      ),
    );
  if (spec.hostNetwork !== true)
    errs.push(
      FieldError.invalid(
        path.child('hostNetwork'),
        false,
        'hostNetwork must be true if pod contains any hostProcess containers',
      ),
    );
  return errs;
}

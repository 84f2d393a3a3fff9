// Container ports as kube validates them (validateContainerPorts, checkHostPortConflicts /
// AccumulateUniqueHostPorts in pkg/apis/core/validation/validation.go).
import type { Container, ContainerPort } from '../../../../api/core/v1/container.js';
import { FieldError, type ErrorList, type FieldPath } from '../../../../machinery/validation/index.js';
import { isValidPortName, isValidPortNum, supportedPortProtocols } from '../../service/port-validation.js';

/** validateContainerPorts: names are IANA_SVC_NAMEs unique within the container, numbers in range. */
export function validateContainerPorts(
  ports: readonly ContainerPort[] | undefined,
  path: FieldPath,
): ErrorList {
  const errs: ErrorList = [];
  const names = new Set<string>();
  (ports ?? []).forEach((port, i) => {
    const p = path.index(i);
    const name = port.name ?? '';
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length > 0) for (const msg of msgs) errs.push(FieldError.invalid(p.child('name'), name, msg));
      else if (names.has(name)) errs.push(FieldError.duplicate(p.child('name'), name));
      else names.add(name);
    }
    const containerPort = (port as Partial<ContainerPort>).containerPort ?? 0;
    if (containerPort === 0) errs.push(FieldError.required(p.child('containerPort')));
    else
      for (const msg of isValidPortNum(containerPort))
        errs.push(FieldError.invalid(p.child('containerPort'), containerPort, msg));
    const hostPort = port.hostPort ?? 0;
    if (hostPort !== 0)
      for (const msg of isValidPortNum(hostPort))
        errs.push(FieldError.invalid(p.child('hostPort'), hostPort, msg));
    const protocol = port.protocol ?? '';
    if (protocol === '') errs.push(FieldError.required(p.child('protocol')));
    else if (!supportedPortProtocols.includes(protocol))
      errs.push(FieldError.notSupported(p.child('protocol'), protocol, supportedPortProtocols));
  });
  return errs;
}

/**
 * checkHostPortConflicts: a `protocol/hostIP/hostPort` may be taken by one port only among
 * `containers` (all regular containers together; each init container alone).
 */
export function checkHostPortConflicts(containers: readonly Container[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      const hostPort = port.hostPort ?? 0;
      if (hostPort === 0) return;
      const key = `${port.protocol ?? ''}/${port.hostIP ?? ''}/${hostPort}`;
      if (seen.has(key))
        errs.push(FieldError.duplicate(path.index(ci).child('ports').index(pi).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errs;
}

/**
 * validatePodHostNetworkDeps: with the host's network a container port is a host port, so a host
 * port set apart from it is refused (an unset one takes the container port, as kube defaults it).
 */
export function validateHostNetworkPorts(containers: readonly Container[], path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      const hostPort = port.hostPort ?? 0;
      if (hostPort !== 0 && hostPort !== port.containerPort)
        errs.push(
          FieldError.invalid(
            path.index(ci).child('ports').index(pi).child('hostPort'),
            hostPort,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
    });
  });
  return errs;
}

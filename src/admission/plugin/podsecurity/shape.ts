// The parts of a pod spec the Pod Security Standards read (k8s.io/pod-security-admission/policy),
// as loose views: the checks see any pod(-template) object, including fields Capstan's own Pod type
// does not declare yet (seccompProfile, seLinuxOptions, appArmorProfile, sysctls…).

export interface ProfileView {
  readonly type?: string;
}

export interface SELinuxView {
  readonly type?: string;
  readonly user?: string;
  readonly role?: string;
}

/** Fields a container's securityContext and the pod's share, each read where kube reads it. */
export interface SecurityContextView {
  readonly privileged?: boolean;
  readonly capabilities?: { readonly add?: readonly string[]; readonly drop?: readonly string[] };
  readonly runAsUser?: number;
  readonly runAsNonRoot?: boolean;
  readonly allowPrivilegeEscalation?: boolean;
  readonly procMount?: string;
  readonly seccompProfile?: ProfileView;
  readonly appArmorProfile?: ProfileView;
  readonly seLinuxOptions?: SELinuxView;
  readonly windowsOptions?: { readonly hostProcess?: boolean };
  readonly sysctls?: readonly { readonly name?: string }[];
}

export interface ContainerView {
  readonly name?: string;
  readonly image?: string;
  readonly ports?: readonly { readonly hostPort?: number }[];
  readonly securityContext?: SecurityContextView;
}

export interface PodSpecView {
  readonly containers?: readonly ContainerView[];
  readonly initContainers?: readonly ContainerView[];
  readonly ephemeralContainers?: readonly ContainerView[];
  readonly volumes?: readonly Readonly<Record<string, unknown>>[];
  readonly hostNetwork?: boolean;
  readonly hostPID?: boolean;
  readonly hostIPC?: boolean;
  readonly hostUsers?: boolean;
  readonly os?: { readonly name?: string };
  readonly securityContext?: SecurityContextView;
}

export interface PodMetaView {
  readonly name?: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** One check's verdict (policy.CheckResult): allowed, or a reason with its detail. */
export interface CheckResult {
  readonly reason: string;
  readonly detail: string;
}

export type PodCheck = (meta: PodMetaView, spec: PodSpecView) => CheckResult | undefined;

/** visitContainers: init containers, then containers, then ephemeral containers. */
export function allContainers(spec: PodSpecView): readonly ContainerView[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

export const nameOf = (c: ContainerView): string => c.name ?? '';

const quote = (s: string): string => JSON.stringify(s);

/** joinQuote: `"a", "b"`. */
export const joinQuote = (items: readonly string[]): string => items.map(quote).join(', ');

/** sets.NewString(...).List(): unique and sorted. */
export const sortedSet = (items: readonly string[]): string[] =>
  [...new Set(items)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export const pluralize = (one: string, many: string, n: number): string => (n === 1 ? one : many);

/** `container "a"` / `containers "a", "b"`. */
export const containersText = (names: readonly string[]): string =>
  `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** The setters of a forbidden value: `pod`, `containers "a"`, or `pod and container "a"`. */
export function settersText(pod: boolean, names: readonly string[]): string {
  const parts: string[] = [];
  if (pod) parts.push('pod');
  if (names.length > 0) parts.push(containersText(names));
  return parts.join(' and ');
}

/** relaxPolicyForUserNamespacePod: a pod in its own user namespace (hostUsers=false). */
export const inUserNamespace = (spec: PodSpecView): boolean => spec.hostUsers === false;

export const isWindows = (spec: PodSpecView): boolean => spec.os?.name === 'windows';

export const volumeName = (v: Readonly<Record<string, unknown>>): string =>
  typeof v['name'] === 'string' ? v['name'] : '';

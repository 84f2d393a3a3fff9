// Request classification by FlowSchemas (k8s.io/apiserver/pkg/util/flowcontrol: the config
// controller's digest and rule.go's matching), compiled once per configuration change so that
// classifying a request walks prepared sets: no list, no string building, no allocation.
import type {
  FlowSchema,
  NonResourcePolicyRule,
  PolicyRulesWithSubjects,
  ResourcePolicyRule,
  Subject,
} from '../../api/flowcontrol/v1/flow-schema.js';
import { compareFlowSchemas } from '../../api/flowcontrol/v1/flow-schema-order.js';
import type { PriorityLevelConfiguration } from '../../api/flowcontrol/v1/priority-level-configuration.js';
import type { RequestInfo } from '../../endpoints/request/request-info.js';
import type { UserInfo } from '../../registry/rest/context.js';

/** What a request was classified as: the UIDs kube puts in the X-Kubernetes-PF-* headers. */
export interface Classification {
  readonly flowSchemaName: string;
  readonly flowSchemaUID: string;
  readonly priorityLevelName: string;
  readonly priorityLevelUID: string;
  readonly exempt: boolean;
  /** How the flow within the level is told apart: by user name, by namespace, or not at all. */
  readonly distinguisher: 'ByUser' | 'ByNamespace' | undefined;
  /** The level's queuing settings, for fair queuing. */
  readonly level: LevelSettings;
}

/** A priority level as fair queuing sees it. */
export interface LevelSettings {
  readonly shares: number;
  /** How much of its nominal limit others may borrow, in percent. */
  readonly lendablePercent: number;
  /** How much beyond it the level may borrow, in percent; undefined: no limit. */
  readonly borrowingLimitPercent: number | undefined;
  readonly reject: boolean;
  readonly queues: number;
  readonly handSize: number;
  readonly queueLengthLimit: number;
}

function levelSettings(pl: PriorityLevelConfiguration): LevelSettings {
  const limited = pl.spec.limited;
  const q = limited?.limitResponse?.queuing;
  const exempt = pl.spec.type === 'Exempt';
  return Object.freeze({
    shares: (exempt ? pl.spec.exempt?.nominalConcurrencyShares : limited?.nominalConcurrencyShares) ?? 0,
    lendablePercent: (exempt ? pl.spec.exempt?.lendablePercent : limited?.lendablePercent) ?? 0,
    // An exempt level's allocation is not limited from above (kube's plSpecCommons).
    borrowingLimitPercent: exempt ? undefined : limited?.borrowingLimitPercent,
    reject: limited?.limitResponse?.type === 'Reject',
    queues: q?.queues ?? 1,
    handSize: q?.handSize ?? 1,
    queueLengthLimit: q?.queueLengthLimit ?? 0,
  });
}

const distinguisherOf = (fs: FlowSchema): Classification['distinguisher'] => {
  const t = fs.spec.distinguisherMethod?.type;
  return t === 'ByUser' || t === 'ByNamespace' ? t : undefined;
};

type Who = Pick<UserInfo, 'name' | 'groups'>;
type What = Pick<
  RequestInfo,
  'isResourceRequest' | 'verb' | 'apiGroup' | 'resource' | 'subresource' | 'namespace' | 'path'
>;

/** A set of names where "*" matches everything: undefined stands for "*". */
type NameSet = ReadonlySet<string> | undefined;

const nameSet = (names: readonly string[] | undefined): NameSet =>
  names?.includes('*') === true ? undefined : new Set(names ?? []);

const inSet = (set: NameSet, value: string): boolean => set === undefined || set.has(value);

interface SubjectMatcher {
  readonly users: NameSet | null;
  readonly groups: NameSet | null;
  /** Exact service account user names. */
  readonly serviceAccounts: ReadonlySet<string>;
  /** `system:serviceaccount:<ns>:` prefixes of name "*" subjects. */
  readonly serviceAccountPrefixes: readonly string[];
}

interface ResourceMatcher {
  readonly verbs: NameSet;
  readonly groups: NameSet;
  /** resource → its subresources ('' for the resource itself); undefined: every resource. */
  readonly resources: ReadonlyMap<string, ReadonlySet<string>> | undefined;
  readonly clusterScope: boolean;
  readonly namespaces: NameSet;
}

interface NonResourceMatcher {
  readonly verbs: NameSet;
  readonly all: boolean;
  readonly paths: ReadonlySet<string>;
  /** Prefixes of `…/*` patterns (with their trailing slash). */
  readonly prefixes: readonly string[];
}

interface RuleMatcher {
  readonly subjects: SubjectMatcher;
  readonly resourceRules: readonly ResourceMatcher[];
  readonly nonResourceRules: readonly NonResourceMatcher[];
}

interface CompiledSchema {
  readonly rules: readonly RuleMatcher[];
  readonly result: Classification;
}

const saPrefix = 'system:serviceaccount:';

function compileSubjects(subjects: readonly Subject[]): SubjectMatcher {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts = new Set<string>();
  const serviceAccountPrefixes: string[] = [];
  for (const s of subjects) {
    if (s.kind === 'User' && s.user !== undefined) users.push(s.user.name ?? '');
    else if (s.kind === 'Group' && s.group !== undefined) groups.push(s.group.name ?? '');
    else if (s.kind === 'ServiceAccount' && s.serviceAccount !== undefined) {
      const { namespace = '', name = '' } = s.serviceAccount;
      if (name === '*') serviceAccountPrefixes.push(`${saPrefix}${namespace}:`);
      else serviceAccounts.add(`${saPrefix}${namespace}:${name}`);
    }
  }
  return {
    users: users.length === 0 ? null : nameSet(users),
    groups: groups.length === 0 ? null : nameSet(groups),
    serviceAccounts,
    serviceAccountPrefixes,
  };
}

function compileResourceRule(r: ResourcePolicyRule): ResourceMatcher {
  let resources: Map<string, Set<string>> | undefined;
  if (!(r.resources ?? []).includes('*')) {
    resources = new Map();
    for (const entry of r.resources ?? []) {
      const slash = entry.indexOf('/');
      const [res, sub] = slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
      const subs = resources.get(res) ?? new Set<string>();
      subs.add(sub);
      resources.set(res, subs);
    }
  }
  return {
    verbs: nameSet(r.verbs),
    groups: nameSet(r.apiGroups),
    resources,
    clusterScope: r.clusterScope === true,
    namespaces: nameSet(r.namespaces),
  };
}

function compileNonResourceRule(r: NonResourcePolicyRule): NonResourceMatcher {
  const urls = r.nonResourceURLs ?? [];
  return {
    verbs: nameSet(r.verbs),
    all: urls.includes('*'),
    paths: new Set(urls),
    prefixes: urls.filter((u) => u.endsWith('*')).map((u) => u.slice(0, -1)),
  };
}

function compileRule(r: PolicyRulesWithSubjects): RuleMatcher {
  return {
    subjects: compileSubjects(r.subjects ?? []),
    resourceRules: (r.resourceRules ?? []).map(compileResourceRule),
    nonResourceRules: (r.nonResourceRules ?? []).map(compileNonResourceRule),
  };
}

function matchesSubject(m: SubjectMatcher, who: Who): boolean {
  if (m.users !== null && inSet(m.users, who.name)) return true;
  if (m.groups !== null) {
    if (m.groups === undefined) return true;
    for (const g of who.groups) if (m.groups.has(g)) return true;
  }
  if (m.serviceAccounts.has(who.name)) return true;
  for (const p of m.serviceAccountPrefixes) if (who.name.startsWith(p)) return true;
  return false;
}

function matchesResource(m: ResourceMatcher, what: What): boolean {
  if (!inSet(m.verbs, what.verb) || !inSet(m.groups, what.apiGroup)) return false;
  if (m.resources !== undefined && m.resources.get(what.resource)?.has(what.subresource) !== true)
    return false;
  return what.namespace === '' ? m.clusterScope : inSet(m.namespaces, what.namespace);
}

function matchesNonResource(m: NonResourceMatcher, what: What): boolean {
  if (!inSet(m.verbs, what.verb)) return false;
  if (m.all || m.paths.has(what.path)) return true;
  for (const p of m.prefixes) if (what.path.startsWith(p)) return true;
  return false;
}

function matchesRule(rule: RuleMatcher, who: Who, what: What): boolean {
  if (!matchesSubject(rule.subjects, who)) return false;
  if (what.isResourceRequest) {
    for (const r of rule.resourceRules) if (matchesResource(r, what)) return true;
  } else {
    for (const r of rule.nonResourceRules) if (matchesNonResource(r, what)) return true;
  }
  return false;
}

const anonymous: Who = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** A configuration compiled for classifying requests. */
export class RequestClassifier {
  readonly #schemas: readonly CompiledSchema[];
  readonly #fallback: Classification | undefined;
  /** The sum of every level's nominal concurrency shares (the denominator of each level's limit). */
  readonly totalShares: number;
  /** Every priority level's settings, by name (what fair queuing divides the server among). */
  readonly levels: ReadonlyMap<string, LevelSettings>;

  /** FlowSchemas whose priority level does not exist (dangling) are left out, as kube does. */
  constructor(schemas: readonly FlowSchema[], levels: readonly PriorityLevelConfiguration[]) {
    const levelByName = new Map(levels.map((l) => [l.metadata?.name ?? '', l]));
    this.levels = new Map(levels.map((l) => [l.metadata?.name ?? '', levelSettings(l)]));
    const compiled: CompiledSchema[] = [];
    for (const fs of [...schemas].sort(compareFlowSchemas)) {
      const level = levelByName.get(fs.spec.priorityLevelConfiguration?.name ?? '');
      if (level === undefined) continue;
      compiled.push({
        rules: (fs.spec.rules ?? []).map(compileRule),
        result: Object.freeze({
          flowSchemaName: fs.metadata?.name ?? '',
          flowSchemaUID: fs.metadata?.uid ?? '',
          priorityLevelName: level.metadata?.name ?? '',
          priorityLevelUID: level.metadata?.uid ?? '',
          exempt: level.spec.type === 'Exempt',
          distinguisher: distinguisherOf(fs),
          level: this.levels.get(level.metadata?.name ?? '') ?? levelSettings(level),
        }),
      });
    }
    this.#schemas = compiled;
    this.totalShares = [...this.levels.values()].reduce((sum, l) => sum + l.shares, 0);
    this.#fallback = compiled.find((c) => c.result.flowSchemaName === 'catch-all')?.result;
  }

  /** The first matching schema's classification; catch-all's when none matches. */
  classify(user: Who | undefined, info: What): Classification | undefined {
    const who = user ?? anonymous;
    for (const s of this.#schemas) {
      for (const rule of s.rules) if (matchesRule(rule, who, info)) return s.result;
    }
    return this.#fallback;
  }
}

// kube's CEL authz library (k8s.io/apiserver/pkg/cel/library/authz.go) for admission expressions:
// `authorizer.group(g).resource(r).subresource(s).namespace(n).name(x).check(verb)`, with kube
// 1.31's `fieldSelector(s)` and `labelSelector(s)` (AuthorizeWithSelectors, on by default since
// 1.32) taken and carried to the check, where no authorizer Capstan has reads them (RBAC does not),
// `authorizer.path(p).check(verb)`, `authorizer.serviceAccount(ns, name)`, `authorizer.requestResource`,
// and a Decision's `allowed()`, `reason()`, `errored()`, `error()`. Its values are CEL maps marked
// with a key no object can have. CEL runs synchronously and Capstan's authorizer answers a promise,
// so an evaluation is replayed: a check not yet answered fails the run and is remembered, the
// session asks the authorizer, and the expressions run again until every check they make is
// answered (they are pure, so a replay computes what one run with answers at hand would).
import type * as Cel from '@bufbuild/cel';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../../rest/authorizer.js';
import type { UserInfo } from '../../../rest/context.js';

type Module = typeof Cel;

const marker = '\u0000authz';
/** A replay ends after this many rounds of new checks (every round answers all it found). */
const maxRounds = 16;

type AuthzKind = 'authorizer' | 'path' | 'group' | 'resource' | 'decision';

class PendingCheck extends Error {}

/** One evaluation's checks: asked of `authorizer` as `user`, answers kept by their attributes. */
export class AuthzSession {
  readonly id: bigint;
  readonly #authorizer: Authorizer;
  readonly #user: UserInfo;
  readonly #answers = new Map<string, AuthorizationResult | { error: string }>();
  readonly #pending = new Map<string, AuthorizationAttributes>();
  readonly #requestResource: ReadonlyMap<string, Cel.CelInput> | undefined;

  constructor(o: {
    id: bigint;
    authorizer: Authorizer;
    user: UserInfo;
    requestResource?: {
      group: string;
      resource: string;
      subresource: string;
      namespace: string;
      name: string;
    };
  }) {
    this.id = o.id;
    this.#authorizer = o.authorizer;
    this.#user = o.user;
    const r = o.requestResource;
    this.#requestResource =
      r === undefined
        ? undefined
        : this.value('resource', {
            group: r.group,
            resource: r.resource,
            subresource: r.subresource,
            namespace: r.namespace,
            name: r.name,
          });
  }

  /** The `authorizer` variable. */
  get variable(): ReadonlyMap<string, Cel.CelInput> {
    const v = new Map<string, Cel.CelInput>(this.value('authorizer', {}));
    if (this.#requestResource !== undefined) v.set('requestResource', this.#requestResource);
    return v;
  }

  /** A marked value of this session. */
  value(kind: AuthzKind, fields: Readonly<Record<string, string>>): Map<string, Cel.CelInput> {
    return new Map<string, Cel.CelInput>([[marker, kind], ['session', this.id], ...Object.entries(fields)]);
  }

  userFor(serviceAccount: string): UserInfo {
    if (serviceAccount === '') return this.#user;
    const [ns = '', name = ''] = serviceAccount.split('/');
    return {
      name: `system:serviceaccount:${ns}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
    };
  }

  /** The answer to `attrs`, or a PendingCheck thrown after remembering it. */
  answer(attrs: AuthorizationAttributes): AuthorizationResult | { error: string } {
    const key = JSON.stringify(attrs);
    const found = this.#answers.get(key);
    if (found !== undefined) return found;
    this.#pending.set(key, attrs);
    throw new PendingCheck('authorization check pending');
  }

  /** Runs `evaluate` until it makes no check that is not answered; its last result. */
  async evaluate<T>(evaluate: () => T): Promise<T> {
    for (let round = 0; ; round++) {
      const result = evaluate();
      if (this.#pending.size === 0) return result;
      if (round === maxRounds) throw new Error('too many authorization checks in one evaluation');
      const asked = [...this.#pending];
      this.#pending.clear();
      await Promise.all(
        asked.map(async ([key, attrs]) => {
          try {
            this.#answers.set(key, await this.#authorizer.authorize(attrs));
          } catch (err) {
            this.#answers.set(key, { error: err instanceof Error ? err.message : String(err) });
          }
        }),
      );
    }
  }
}

/** The sessions open now, by id: CEL functions are shared by every evaluation and find theirs here. */
export class AuthzSessions {
  readonly #open = new Map<bigint, AuthzSession>();
  #next = 1n;

  /** Evaluates with a session whose checks `authorizer` answers for `user`. */
  async withSession<T>(
    o: Omit<ConstructorParameters<typeof AuthzSession>[0], 'id'>,
    evaluate: (session: AuthzSession) => Promise<T>,
  ): Promise<T> {
    const session = new AuthzSession({ ...o, id: this.#next++ });
    this.#open.set(session.id, session);
    try {
      return await evaluate(session);
    } finally {
      this.#open.delete(session.id);
    }
  }

  get(id: unknown): AuthzSession | undefined {
    return typeof id === 'bigint' ? this.#open.get(id) : undefined;
  }
}

/** The library's functions over `sessions`. */
export function authzFunctions(cel: Module, sessions: AuthzSessions): Cel.CelFunc[] {
  const { DYN, STRING, BOOL } = cel.CelScalar;
  const read = (v: unknown, kind: AuthzKind): { session: AuthzSession; get: (k: string) => string } => {
    if (!cel.isCelMap(v) || v.get(marker) !== kind) throw new Error('no such overload');
    const session = sessions.get(v.get('session'));
    if (session === undefined) throw new Error('authorizer is not available');
    const get = (k: string): string => {
      const x = v.get(k);
      return typeof x === 'string' ? x : '';
    };
    return { session, get };
  };
  /** A copy of a marked value with one field set. */
  const withField = (v: unknown, kind: AuthzKind, set: { field: string; value: string }) => {
    const { field, value } = set;
    const { session, get } = read(v, kind);
    const fields: Record<string, string> = {};
    for (const k of [
      'serviceAccount',
      'group',
      'resource',
      'subresource',
      'namespace',
      'name',
      'fieldSelector',
      'labelSelector',
      'path',
    ])
      fields[k] = get(k);
    fields[field] = value;
    return session.value(kind, fields);
  };
  const decision = (session: AuthzSession, attrs: AuthorizationAttributes) => {
    const a = session.answer(attrs);
    return 'error' in a
      ? session.value('decision', { decision: 'NoOpinion', reason: '', error: a.error })
      : session.value('decision', { decision: a.decision, reason: a.reason, error: '' });
  };
  const decisionField = (v: unknown, field: string): string => read(v, 'decision').get(field);
  return [
    cel.celMethod('path', DYN, [STRING], DYN, function (path) {
      return withField(this, 'authorizer', { field: 'path', value: path }).set(marker, 'path');
    }),
    cel.celMethod('group', DYN, [STRING], DYN, function (group) {
      return withField(this, 'authorizer', { field: 'group', value: group }).set(marker, 'group');
    }),
    cel.celMethod('serviceAccount', DYN, [STRING, STRING], DYN, function (ns, name) {
      return withField(this, 'authorizer', { field: 'serviceAccount', value: `${ns}/${name}` });
    }),
    cel.celMethod('resource', DYN, [STRING], DYN, function (resource) {
      return withField(this, 'group', { field: 'resource', value: resource }).set(marker, 'resource');
    }),
    ...(['subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'] as const).map((field) =>
      cel.celMethod(field, DYN, [STRING], DYN, function (value) {
        return withField(this, 'resource', { field, value });
      }),
    ),
    cel.celMethod('check', DYN, [STRING], DYN, function (verb) {
      if (cel.isCelMap(this) && this.get(marker) === 'path') {
        const { session, get } = read(this, 'path');
        return decision(session, {
          user: session.userFor(get('serviceAccount')),
          verb,
          resourceRequest: false,
          path: get('path'),
        });
      }
      const { session, get } = read(this, 'resource');
      return decision(session, {
        user: session.userFor(get('serviceAccount')),
        verb,
        resourceRequest: true,
        apiGroup: get('group'),
        apiVersion: '*',
        resource: get('resource'),
        subresource: get('subresource'),
        namespace: get('namespace'),
        name: get('name'),
      });
    }),
    cel.celMethod('allowed', DYN, [], BOOL, function () {
      return decisionField(this, 'decision') === 'Allow';
    }),
    cel.celMethod('reason', DYN, [], STRING, function () {
      return decisionField(this, 'reason');
    }),
    cel.celMethod('errored', DYN, [], BOOL, function () {
      return decisionField(this, 'error') !== '';
    }),
    cel.celMethod('error', DYN, [], STRING, function () {
      return decisionField(this, 'error');
    }),
  ];
}

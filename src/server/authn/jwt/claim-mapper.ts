// From verified claims to a user (k8s.io/apiserver/plugin/pkg/authenticator/token/oidc): claim
// validation rules, the username/groups/uid/extra mappings by claim and prefix or by CEL expression
// over `claims`, then the user validation rules over `user`. CEL programs are compiled once, at start,
// and each evaluation is held to kube's per-call cost limit.
import type { CelInput } from '@bufbuild/cel';
import { memberOf } from '../../../machinery/json/set-member.js';
import { loadCel, type CelLibrary } from '../../../registry/apiextensions/customresource/cel/load.js';
import type { MeteredProgram } from '../../../registry/apiextensions/customresource/cel/metering.js';
import { toCel } from '../../../registry/apiextensions/customresource/cel/values.js';
import type { UserInfo } from '../../../registry/rest/context.js';
import type { JWTAuthenticatorConfig, PrefixedClaimOrExpression } from './authentication-config.js';

type Program = MeteredProgram;
type Claims = Readonly<Record<string, unknown>>;

/** Why a verified token does not authenticate; the text is logged, the client gets a bare 401. */
export class ClaimError extends Error {}

interface Compiled {
  readonly lib: CelLibrary | undefined;
  readonly programs: ReadonlyMap<string, Program>;
}

function expressionsOf(c: JWTAuthenticatorConfig): string[] {
  const m = c.claimMappings;
  return [
    m.username.expression,
    m.groups?.expression,
    m.uid?.expression,
    ...(m.extra ?? []).map((e) => e.valueExpression),
    ...(c.claimValidationRules ?? []).map((r) => r.expression),
    ...(c.userValidationRules ?? []).map((r) => r.expression),
  ].filter((e): e is string => e !== undefined && e !== '');
}

async function compile(c: JWTAuthenticatorConfig): Promise<Compiled> {
  const expressions = expressionsOf(c);
  if (expressions.length === 0) return { lib: undefined, programs: new Map() };
  const lib = await loadCel();
  const programs = new Map<string, Program>();
  const errs: string[] = [];
  for (const e of expressions) {
    try {
      programs.set(e, lib.plan(lib.parse(e)));
    } catch (err) {
      errs.push(`compilation failed for expression ${JSON.stringify(e)}: ${(err as Error).message}`);
    }
  }
  if (errs.length > 0) throw new Error(errs.join('; '));
  return { lib, programs };
}

function claimString(claims: Claims, name: string, what: string): string {
  const v = memberOf(claims, name);
  if (v === undefined)
    throw new ClaimError(`oidc: parse ${what} claims ${JSON.stringify(name)}: claim not present`);
  if (typeof v !== 'string')
    throw new ClaimError(
      `oidc: parse ${what} claims ${JSON.stringify(name)}: json: cannot unmarshal ${typeof v} into Go value of type string`,
    );
  return v;
}

/** A groups claim is a string or a list of strings (kube's stringOrArray). */
function stringOrArray(v: unknown, name: string): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v;
  throw new ClaimError(
    `oidc: parse groups claim ${JSON.stringify(name)}: json: cannot unmarshal into Go value of type string`,
  );
}

export class ClaimMapper {
  readonly #config: JWTAuthenticatorConfig;
  readonly #compiled: Compiled;

  private constructor(config: JWTAuthenticatorConfig, compiled: Compiled) {
    this.#config = config;
    this.#compiled = compiled;
  }

  static async create(config: JWTAuthenticatorConfig): Promise<ClaimMapper> {
    return new ClaimMapper(config, await compile(config));
  }

  #eval(expression: string, bindings: Record<string, CelInput>): unknown {
    const { lib, programs } = this.#compiled;
    const program = programs.get(expression);
    if (lib === undefined || program === undefined)
      throw new ClaimError(`oidc: expression ${expression} not compiled`);
    let result: unknown;
    try {
      result = program(bindings).value;
    } catch (err) {
      throw new ClaimError(
        `oidc: error evaluating expression ${JSON.stringify(expression)}: ${(err as Error).message}`,
      );
    }
    if (lib.cel.isCelError(result))
      throw new ClaimError(
        `oidc: error evaluating expression ${JSON.stringify(expression)}: ${result.message}`,
      );
    return result;
  }

  #strings(expression: string, bindings: Record<string, CelInput>, what: string): string[] {
    const v = this.#eval(expression, bindings);
    if (v === null) return [];
    if (typeof v === 'string') return v === '' ? [] : [v];
    if (typeof v === 'object' && Symbol.iterator in v) {
      const items = [...(v as Iterable<unknown>)];
      if (items.every((s) => typeof s === 'string')) return items;
    }
    throw new ClaimError(
      `oidc: error evaluating ${what} expression: expression must return a string or a list of strings`,
    );
  }

  #username(claims: Claims, bindings: Record<string, CelInput>): string {
    const m = this.#config.claimMappings.username;
    if (m.expression !== undefined && m.expression !== '') {
      const v = this.#eval(m.expression, bindings);
      if (typeof v !== 'string')
        throw new ClaimError('oidc: error evaluating username expression: expression must return a string');
      if (v === '') throw new ClaimError('oidc: empty username via CEL expression is not allowed');
      return v;
    }
    const claim = m.claim ?? 'sub';
    const name = claimString(claims, claim, 'username');
    if (claim === 'email' && claims.email_verified !== undefined && claims.email_verified !== true)
      throw new ClaimError('oidc: email not verified');
    return `${m.prefix ?? ''}${name}`;
  }

  #groups(
    m: PrefixedClaimOrExpression | undefined,
    claims: Claims,
    bindings: Record<string, CelInput>,
  ): string[] {
    if (m === undefined) return [];
    if (m.expression !== undefined && m.expression !== '')
      return this.#strings(m.expression, bindings, 'groups');
    if (m.claim === undefined || m.claim === '') return [];
    const v = memberOf(claims, m.claim);
    if (v === undefined) return [];
    return stringOrArray(v, m.claim).map((g) => `${m.prefix ?? ''}${g}`);
  }

  #validateClaims(claims: Claims, bindings: Record<string, CelInput>): void {
    for (const r of this.#config.claimValidationRules ?? []) {
      if (r.expression !== undefined && r.expression !== '') {
        const ok = this.#eval(r.expression, bindings);
        if (ok !== true)
          throw new ClaimError(
            `oidc: error evaluating claim validation expression: ${r.message ?? `validation expression '${r.expression}' failed`}`,
          );
        continue;
      }
      const claim = r.claim ?? '';
      const v = memberOf(claims, claim);
      if (v === undefined) throw new ClaimError(`oidc: required claim ${claim} not present in ID token`);
      if (v !== (r.requiredValue ?? ''))
        throw new ClaimError(
          `oidc: required claim ${claim} value does not match. Got = ${JSON.stringify(v)}, want = ${r.requiredValue ?? ''}`,
        );
    }
  }

  /** The user the claims stand for, or a ClaimError. */
  map(claims: Claims): UserInfo {
    const bindings: Record<string, CelInput> = { claims: toCel(claims, undefined) };
    this.#validateClaims(claims, bindings);
    const m = this.#config.claimMappings;
    const name = this.#username(claims, bindings);
    const groups = this.#groups(m.groups, claims, bindings);
    let uid: string | undefined;
    if (m.uid?.expression !== undefined && m.uid.expression !== '') {
      const v = this.#eval(m.uid.expression, bindings);
      if (typeof v !== 'string')
        throw new ClaimError('oidc: error evaluating uid expression: expression must return a string');
      uid = v;
    } else if (m.uid?.claim !== undefined && m.uid.claim !== '')
      uid = claimString(claims, m.uid.claim, 'uid');
    const extra: Record<string, string[]> = {};
    for (const e of m.extra ?? []) {
      const values = this.#strings(e.valueExpression, bindings, 'extra');
      if (values.length > 0) extra[e.key] = values;
    }
    const user: UserInfo = {
      name,
      groups,
      ...(uid === undefined || uid === '' ? {} : { uid }),
      ...(Object.keys(extra).length === 0 ? {} : { extra }),
    };
    this.#validateUser(user);
    return user;
  }

  #validateUser(user: UserInfo): void {
    const rules = this.#config.userValidationRules ?? [];
    if (rules.length === 0) return;
    const bindings: Record<string, CelInput> = {
      user: toCel(
        { username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} },
        undefined,
      ),
    };
    for (const r of rules) {
      if (this.#eval(r.expression, bindings) !== true)
        throw new ClaimError(
          `oidc: error evaluating user info validation rule: ${r.message ?? `validation expression '${r.expression}' failed`}`,
        );
    }
  }
}

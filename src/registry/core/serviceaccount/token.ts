// serviceaccounts/token (pkg/registry/core/serviceaccount/storage/token.go): issues a signed JWT
// for the service account named in the URL, optionally bound to a Pod or Secret of its namespace.
import {
  defaultTokenExpirationSeconds,
  type BoundObjectReference,
  type TokenRequest,
} from '../../../api/authentication/v1/token-request.js';
import type { ServiceAccount } from '../../../api/core/v1/service-account.js';
import type { KubeObject } from '../../../api/meta.js';
import { newBadRequest, newConflict, newInvalid } from '../../../machinery/errors/index.js';
import { FieldError, FieldPath, type ErrorList } from '../../../machinery/validation/index.js';
import { rfc3339 } from '../../generic/object-meta.js';
import type { Getter, NamedCreater, Storage, ValidateObjectFunc } from '../../rest/capabilities.js';
import type { RequestContext } from '../../rest/context.js';
import type { CreateOptions } from '../../rest/options.js';
import { serviceAccountClaims, type ObjectRef, type TokenSubject } from './claims.js';
import { signJwt, type TokenSigner } from './jwt.js';
import { deepCopyJSON } from '../../../machinery/json/deep-copy.js';

const tokenRequestKind = { group: 'authentication.k8s.io', kind: 'TokenRequest' } as const;

/** How tokens are issued: the signing key, the `iss` claim and the audiences a token gets by default. */
export interface ServiceAccountTokenIssuer {
  readonly signer: TokenSigner;
  readonly issuer: string;
  readonly apiAudiences: readonly string[];
  /** --service-account-max-token-expiration in seconds; 0 for no limit. */
  readonly maxExpirationSeconds?: number;
  /** The server's clock in milliseconds (default: the system's): iat, nbf, exp and the expiration timestamp. */
  readonly now?: () => number;
}

export interface TokenRESTInit {
  readonly serviceAccounts: Getter;
  readonly pods?: Getter;
  readonly secrets?: Getter;
  readonly issuer: ServiceAccountTokenIssuer;
}

/** ValidateTokenRequest. */
export function validateTokenRequest(req: TokenRequest): ErrorList {
  const errs: ErrorList = [];
  const path = FieldPath.of('spec', 'expirationSeconds');
  const seconds = req.spec.expirationSeconds ?? defaultTokenExpirationSeconds;
  if (seconds < 600)
    errs.push(FieldError.invalid(path, seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > 2 ** 32)
    errs.push(FieldError.invalid(path, seconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

function refOf(obj: KubeObject): ObjectRef {
  return { name: obj.metadata?.name ?? '', uid: obj.metadata?.uid ?? '' };
}

/** schema.FromAPIVersionAndKind(...).String(). */
function gvkText(ref: BoundObjectReference): { group: string; text: string } {
  const apiVersion = ref.apiVersion ?? '';
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return { group, text: `${group}/${version}, Kind=${ref.kind ?? ''}` };
}

export class TokenREST implements Storage, NamedCreater {
  readonly #init: TokenRESTInit;

  constructor(init: TokenRESTInit) {
    this.#init = init;
  }
  newObject(): TokenRequest {
    return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} };
  }
  destroy(): void {
    // No storage of its own.
  }

  async createNamed(
    ctx: RequestContext,
    name: string,
    input: { obj: KubeObject; options: CreateOptions; validate?: ValidateObjectFunc },
  ): Promise<KubeObject> {
    const req = input.obj as TokenRequest;
    req.spec = (req as Partial<TokenRequest>).spec ?? {};
    const namespace = ctx.namespace;
    if (namespace === '') throw newBadRequest('namespace is required');
    const meta = (req.metadata ??= {});
    if ((meta.name ?? '') !== '' && meta.name !== name) {
      const err = FieldError.invalid(
        FieldPath.of('metadata', 'name'),
        meta.name,
        'must match the service account name if specified',
      );
      throw newInvalid(tokenRequestKind, name, [err]);
    }
    if ((meta.namespace ?? '') !== '' && meta.namespace !== namespace) {
      const detail = 'must match the service account namespace if specified';
      throw newInvalid(tokenRequestKind, name, [
        FieldError.invalid(FieldPath.of('metadata', 'namespace'), meta.namespace, detail),
      ]);
    }
    const sa = (await this.#init.serviceAccounts.get(ctx, name, {})) as ServiceAccount;
    meta.name = sa.metadata?.name ?? name;
    meta.namespace = sa.metadata?.namespace ?? namespace;
    const now = new Date(this.#init.issuer.now?.() ?? Date.now());
    meta.creationTimestamp = rfc3339(now);
    delete req.status;
    req.spec.expirationSeconds ??= defaultTokenExpirationSeconds;
    const audiences = req.spec.audiences ?? [];
    req.spec.audiences = audiences.length > 0 ? audiences : [...this.#init.issuer.apiAudiences];
    const errs = validateTokenRequest(req);
    if (errs.length > 0) throw newInvalid(tokenRequestKind, '', errs);
    if (input.validate !== undefined) await input.validate(ctx, deepCopyJSON(req));
    const bound = await this.#boundObject(ctx, name, req.spec.boundObjectRef ?? undefined);
    const max = this.#init.issuer.maxExpirationSeconds ?? 0;
    if (max > 0 && req.spec.expirationSeconds > max) {
      ctx.addWarning(
        `requested expiration of ${req.spec.expirationSeconds} seconds shortened to ${max} seconds`,
      );
      req.spec.expirationSeconds = max;
    }
    const subject: TokenSubject = { namespace: meta.namespace, serviceAccount: refOf(sa), ...bound };
    const seconds = Math.floor(now.getTime() / 1000);
    const claims = serviceAccountClaims({
      subject,
      issuer: this.#init.issuer.issuer,
      audiences: req.spec.audiences,
      expirationSeconds: req.spec.expirationSeconds,
      now: seconds,
    });
    const token = signJwt(this.#init.issuer.signer, claims);
    const expires = new Date(now.getTime() + req.spec.expirationSeconds * 1000);
    return {
      ...req,
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      status: { token, expirationTimestamp: rfc3339(expires) },
    };
  }

  async #boundObject(
    ctx: RequestContext,
    name: string,
    ref: BoundObjectReference | undefined,
  ): Promise<{ pod?: ObjectRef; secret?: ObjectRef }> {
    if (ref === undefined) return {};
    const gvk = gvkText(ref);
    const refName = ref.name ?? '';
    let out: { pod?: ObjectRef; secret?: ObjectRef };
    if (gvk.group === '' && ref.kind === 'Pod' && this.#init.pods !== undefined) {
      const pod = (await this.#init.pods.get(ctx, refName, {})) as KubeObject & {
        spec?: { serviceAccountName?: string };
      };
      if ((pod.spec?.serviceAccountName ?? '') !== name)
        throw newBadRequest(
          `cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`,
        );
      out = { pod: refOf(pod) };
    } else if (gvk.group === '' && ref.kind === 'Secret' && this.#init.secrets !== undefined) {
      out = { secret: refOf(await this.#init.secrets.get(ctx, refName, {})) };
    } else {
      throw newBadRequest(`cannot bind token to object of type ${gvk.text}`);
    }
    const uid = out.pod?.uid ?? out.secret?.uid ?? '';
    if ((ref.uid ?? '') !== '' && ref.uid !== uid) {
      const cause = `the UID in the bound object reference (${ref.uid ?? ''}) does not match the UID in record. The object might have been deleted and then recreated`;
      throw newConflict({ group: gvk.group, resource: ref.kind ?? '' }, refName, cause);
    }
    return out;
  }
}

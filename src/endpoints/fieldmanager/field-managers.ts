// One FieldManager per kind and subresource, built from the server's Scheme, and the manager
// name a request acts as (handlers/rest.go managerOrUserAgent).
import type { KubeObject } from '../../api/meta.js';
import type { Schema } from '../../api/schema/types.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { FieldManager } from './field-manager.js';

/** What the field managers need of a Scheme: the kind's definition and `$ref` resolution. */
export interface SchemaSource {
  kindFor(apiVersion: string, kind: string): { readonly definition: string } | undefined;
  resolve(schema: Schema): Schema;
}

/** The Go zero object of a kind (goZeroObject), built once per kind; undefined for none. */
export type ZeroObjects = (type: {
  readonly apiVersion: string;
  readonly kind: string;
}) => Readonly<KubeObject> | undefined;

export class FieldManagers {
  readonly #scheme: SchemaSource;
  readonly #zeros: ZeroObjects | undefined;
  readonly #cache = new Map<string, FieldManager | null>();

  /** `zeros` for built-in kinds; without it a create is compared with `{apiVersion, kind}`. */
  constructor(scheme: SchemaSource, zeros?: ZeroObjects) {
    this.#scheme = scheme;
    this.#zeros = zeros;
  }

  /** The field manager of a kind, or undefined when the kind has no schema. */
  forKind(gvk: GroupVersionKind, subresource: string): FieldManager | undefined {
    const key = `${gvk.group}/${gvk.version}/${gvk.kind}/${subresource}`;
    let fm = this.#cache.get(key);
    if (fm === undefined) {
      const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
      const info = this.#scheme.kindFor(apiVersion, gvk.kind);
      const zero = info === undefined ? undefined : this.#zeros?.({ apiVersion, kind: gvk.kind });
      fm =
        info === undefined
          ? null
          : new FieldManager({
              resolver: this.#scheme,
              root: { $ref: info.definition },
              ...gvk,
              subresource,
              ...(zero === undefined ? {} : { zero }),
            });
      this.#cache.set(key, fm);
    }
    return fm ?? undefined;
  }
}

const maxLength = 128;
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
// Printable ASCII (Go's unicode.IsPrint over it) up to the first `/`, short enough to keep whole:
// the user agent of nearly every client, taken without a look at each character.
const plainPrefix = /^[\x20-\x2e\x30-\x7e]{0,128}(?:\/|$)/;

/** The fieldManager parameter, or the user agent up to its first `/`, printable and ≤128 bytes. */
export function managerOrUserAgent(manager: string | undefined, userAgent: string): string {
  if (manager !== undefined && manager !== '') return manager;
  const plain = plainPrefix.exec(userAgent);
  if (plain !== null) return plain[0].endsWith('/') ? plain[0].slice(0, -1) : plain[0];
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!printable.test(ch)) continue;
    if (Buffer.byteLength(out + ch) > maxLength) break;
    out += ch;
  }
  return out;
}

// A FieldManager for a built-in kind, as the server builds one, for tests of the field manager.
import assert from 'node:assert/strict';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeObject } from '../../api/meta.js';
import { goZeroObject } from '../../machinery/json/go-member-order.js';
import { FieldManager } from '../fieldmanager/field-manager.js';

const scheme = builtinScheme();

/**
 * The field manager of `kind` in `apiVersion` (a subresource's with `subresource`); with `zero`,
 * creates compare with the kind's Go zero object, as the create handler's store does.
 */
export function builtinFieldManager(
  apiVersion: string,
  kind: string,
  opts: { readonly subresource?: string; readonly zero?: boolean } = {},
): FieldManager {
  const info = scheme.kindFor(apiVersion, kind);
  assert.ok(info !== undefined, `${apiVersion} ${kind}`);
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return new FieldManager({
    resolver: scheme,
    root: { $ref: info.definition },
    group: group ?? '',
    version: version ?? '',
    kind,
    subresource: opts.subresource ?? '',
    ...(opts.zero === true ? { zero: goZeroObject(scheme, { apiVersion, kind }) as KubeObject } : {}),
  });
}

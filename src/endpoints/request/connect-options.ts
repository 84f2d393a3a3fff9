// A connect request's options (handlers/rest.go getRequestOptions): the query decoded into the
// connecter's v1 options kind by kube's parameter codec, then defaulted. Admission sees them as the
// CONNECT request's object, so they are built as the Go struct encodes them: TypeMeta first, the
// fields in declaration order, omitempty fields left out when zero (PodExecOptions.command has no
// omitempty, so an exec without one carries `"command":null`).
import type { KubeObject } from '../../api/meta.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import type { GroupVersionKind } from '../../machinery/schema/group-resource.js';
import { goQuote } from '../../machinery/validation/index.js';
import { goBool } from './query-params.js';

type FieldType = 'bool' | 'string' | 'strings' | 'ports';

interface OptionsKind {
  /** The fields in their Go struct's order; `always` for one without omitempty. */
  readonly fields: readonly { readonly name: string; readonly type: FieldType; readonly always?: true }[];
  /** The members SetDefaults sets true (core/v1 defaults.go), whatever the query said. */
  readonly defaultTrue?: readonly string[];
}

const streams = [
  { name: 'stdin', type: 'bool' },
  { name: 'stdout', type: 'bool' },
  { name: 'stderr', type: 'bool' },
  { name: 'tty', type: 'bool' },
  { name: 'container', type: 'string' },
] as const;
const pathOnly: OptionsKind = { fields: [{ name: 'path', type: 'string' }] };

// core/v1's connect options kinds.
const optionsKinds: Readonly<Record<string, OptionsKind>> = {
  PodExecOptions: {
    fields: [...streams, { name: 'command', type: 'strings', always: true }],
    defaultTrue: ['stdout', 'stderr'],
  },
  PodAttachOptions: { fields: streams, defaultTrue: ['stdout', 'stderr'] },
  PodPortForwardOptions: { fields: [{ name: 'ports', type: 'ports' }] },
  PodProxyOptions: pathOnly,
  NodeProxyOptions: pathOnly,
  ServiceProxyOptions: pathOnly,
};

/** The member a subpath is decoded into (every proxy's NewConnectOptions names `path`). */
const subpathKey = 'path';

/**
 * metav1.Convert_Slice_string_To_Slice_int32: each value split at commas, each piece a port
 * (strconv.ParseUint(v, 10, 16)).
 */
function ports(values: readonly string[]): number[] {
  const out: number[] = [];
  for (const value of values) {
    for (const piece of value.split(',')) {
      const problem = !/^[0-9]+$/.test(piece)
        ? 'invalid syntax'
        : Number(piece) > 0xffff
          ? 'value out of range'
          : undefined;
      if (problem !== undefined)
        throw newBadRequest(
          `cannot convert to []int32: strconv.ParseUint: parsing ${goQuote(piece)}: ${problem}`,
        );
      out.push(Number(piece));
    }
  }
  return out;
}

function fieldValue(type: FieldType, values: readonly string[]): unknown {
  switch (type) {
    case 'bool':
      return values.length > 0 && goBool(values[0] ?? '');
    case 'string':
      return values[0] ?? '';
    case 'strings':
      return values.length > 0 ? [...values] : null;
    case 'ports':
      return values.length > 0 ? ports(values) : null;
  }
}

const isZero = (value: unknown): boolean => value === false || value === '' || value === null;

/** The subpath as getRequestOptions puts it: with a leading slash, and the URL's trailing one. */
export function connectSubpath(parts: readonly string[], urlPath: string): string {
  let p = parts.join('/');
  if (p !== '' && !p.startsWith('/')) p = `/${p}`;
  if (urlPath.endsWith('/') && !p.endsWith('/')) p += '/';
  return p;
}

/**
 * The options of a connect request to `kind`'s connecter, from its query and, for a connecter
 * that takes one, its subpath; a malformed value is a BadRequest with kube's conversion text.
 * Undefined for a kind that is no connect options kind.
 */
export function connectOptions(
  kind: GroupVersionKind,
  query: URLSearchParams,
  subpath: string | undefined,
): KubeObject | undefined {
  const spec = optionsKinds[kind.kind];
  if (spec === undefined) return undefined;
  const values = (name: string): string[] =>
    name === subpathKey && subpath !== undefined ? [subpath] : query.getAll(name);
  // The parameter codec leaves an empty query undecoded: no defaults either.
  const decoded = subpath !== undefined || [...query.keys()].length > 0;
  const apiVersion = kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
  const out: Record<string, unknown> = { kind: kind.kind, apiVersion };
  for (const field of spec.fields) {
    let value = decoded ? fieldValue(field.type, values(field.name)) : fieldValue(field.type, []);
    if (decoded && spec.defaultTrue?.includes(field.name) === true) value = true;
    if (field.always === true || !isZero(value)) out[field.name] = value;
  }
  return out;
}

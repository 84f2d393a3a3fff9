// metav1.DeleteOptions from a DELETE's body or, when the body is empty, its query
// (handlers/delete.go), and ValidateDeleteOptions.
import type { Preconditions } from '../../api/meta.js';
import { newInvalid, statusError, type StatusError } from '../../machinery/errors/index.js';
import { ProtoError, type ProtobufDecoder } from '../../machinery/protobuf/index.js';
import { FieldError, newPath } from '../../machinery/validation/index.js';
import {
  propagationPolicies,
  type DeleteOptions,
  type PropagationPolicy,
} from '../../registry/rest/options.js';
import { unsupportedMediaTypeError } from '../negotiation/errors.js';
import { textBodySerializers } from '../negotiation/media-types.js';
import { negotiateInputSerializer } from '../negotiation/negotiate.js';
import { goJSONTypeName } from '../../machinery/json/go-json-syntax.js';
import { parseGoJSON } from './parse-go-json.js';
import { boolParam, int64Param } from './query-params.js';
import { YAMLSyntaxError, yamlToJSONText } from './yaml-body.js';

/** What kube's DeleteOptions fields may hold; anything else fails the decode. */
interface RawDeleteOptions {
  dryRun?: string[];
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  propagationPolicy?: string;
  orphanDependents?: boolean;
}

// kube passes delete-body decode errors through unconverted, so clients see a 500 with reason Unknown.
// kube answers an undecodable DeleteOptions body 500 with the decoder's text; it is the client's
// mistake, so Capstan keeps the text and answers 400.
function undecodable(message: string): StatusError {
  return statusError({ reason: 'BadRequest', code: 400, message });
}

const fieldTypes: Readonly<Record<string, { json: string; go: string }>> = {
  gracePeriodSeconds: { json: 'number', go: 'int64' },
  propagationPolicy: { json: 'string', go: 'v1.DeletionPropagation' },
  orphanDependents: { json: 'bool', go: 'bool' },
  dryRun: { json: 'array', go: '[]string' },
  preconditions: { json: 'object', go: 'v1.Preconditions' },
};

const typeError = (got: string, field: string, goType: string): StatusError =>
  undecodable(`json: cannot unmarshal ${got} into Go struct field ${field} of type ${goType}`);

// Preconditions' members are *types.UID and *string: a null leaves one unset.
function decodePreconditions(value: Record<string, unknown>): Preconditions {
  const out: Preconditions = {};
  for (const [field, goType] of [
    ['uid', 'types.UID'],
    ['resourceVersion', 'string'],
  ] as const) {
    const v = Object.hasOwn(value, field) ? value[field] : undefined;
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string')
      throw typeError(goJSONTypeName(v), `Preconditions.preconditions.${field}`, goType);
    out[field] = v;
  }
  return out;
}

/**
 * The fields kube's DeleteOptions has, type-checked as encoding/json does; a null leaves a field
 * unset (its Go type is a pointer or a slice), and a null in dryRun is an empty string.
 */
function decodeFields(obj: Record<string, unknown>): RawDeleteOptions {
  const raw: Record<string, unknown> = {};
  for (const [field, want] of Object.entries(fieldTypes)) {
    const value = Object.hasOwn(obj, field) ? obj[field] : undefined;
    if (value === undefined || value === null) continue;
    const got = goJSONTypeName(value);
    if (got !== want.json) throw typeError(got, `DeleteOptions.${field}`, want.go);
    if (field === 'dryRun') {
      const items = value as unknown[];
      const bad = items.find((v) => v !== null && typeof v !== 'string');
      if (bad !== undefined) throw typeError(goJSONTypeName(bad), `DeleteOptions.${field}`, 'string');
      raw[field] = items.map((v) => (v === null ? '' : v));
    } else if (field === 'preconditions') raw[field] = decodePreconditions(value as Record<string, unknown>);
    else raw[field] = value;
  }
  return raw;
}

function checkKind(kind: string, apiVersion: string): void {
  if (kind !== '' && kind !== 'DeleteOptions') {
    throw undecodable(
      `no kind "${kind}" is registered for version "${apiVersion === '' ? 'meta.k8s.io/v1' : apiVersion}" in scheme "pkg/runtime/scheme.go:100"`,
    );
  }
}

// A protobuf body: the envelope names the kind, the message is metav1.DeleteOptions.
function decodeProtobufBody(body: Buffer, decoder: ProtobufDecoder | undefined): RawDeleteOptions {
  const definition = decoder?.definitionOf({ group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' });
  if (decoder === undefined || definition === undefined) {
    throw unsupportedMediaTypeError(textBodySerializers.map((s) => s.mediaType));
  }
  try {
    const unk = decoder.envelope(body);
    checkKind(unk.kind, unk.apiVersion);
    return decoder.toJSON(definition, unk.raw);
  } catch (err) {
    throw err instanceof ProtoError ? undecodable(err.message) : err;
  }
}

function decodeBody(
  body: Buffer,
  opts: { contentType: string; protobuf?: ProtobufDecoder | undefined },
): RawDeleteOptions {
  const serializer = negotiateInputSerializer(opts.contentType);
  if (serializer.mediaType === 'application/vnd.kubernetes.protobuf') {
    return decodeProtobufBody(body, opts.protobuf);
  }
  let text = body.toString('utf8');
  if (serializer.mediaType === 'application/yaml') {
    try {
      text = yamlToJSONText(body);
    } catch (err) {
      throw err instanceof YAMLSyntaxError ? undecodable(err.message) : err;
    }
  }
  const parsed = parseGoJSON(text);
  if (!parsed.ok) throw undecodable(`couldn't get version/kind; json parse error: ${parsed.error}`);
  const value = parsed.value;
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw undecodable(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJSONTypeName(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const obj = value as Record<string, unknown>;
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  checkKind(kind, typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '');
  return decodeFields(obj);
}

function fromQuery(query: URLSearchParams): RawDeleteOptions {
  const raw: RawDeleteOptions = {};
  const grace = int64Param(query, 'gracePeriodSeconds');
  if (grace !== undefined) raw.gracePeriodSeconds = grace;
  const orphan = boolParam(query, 'orphanDependents');
  if (orphan !== undefined) raw.orphanDependents = orphan;
  const policy = query.get('propagationPolicy');
  if (policy !== null) raw.propagationPolicy = policy;
  const dryRun = query.getAll('dryRun');
  if (dryRun.length > 0) raw.dryRun = dryRun;
  return raw;
}

function validate(raw: RawDeleteOptions): DeleteOptions {
  const errs: FieldError[] = [];
  const path = newPath('propagationPolicy');
  if (raw.orphanDependents !== undefined && raw.propagationPolicy !== undefined) {
    errs.push(
      FieldError.invalid(
        path,
        raw.propagationPolicy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  const policy = raw.propagationPolicy;
  if (policy !== undefined && !(propagationPolicies as readonly string[]).includes(policy)) {
    errs.push(FieldError.notSupported(path, policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (raw.dryRun !== undefined && !raw.dryRun.every((v) => v === 'All')) {
    errs.push(FieldError.notSupported(newPath('dryRun'), raw.dryRun, ['All']));
  }
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
  const out: DeleteOptions = {};
  if (raw.dryRun !== undefined && raw.dryRun.length > 0) out.dryRun = raw.dryRun;
  if (raw.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = raw.gracePeriodSeconds;
  if (raw.preconditions !== undefined) out.preconditions = raw.preconditions;
  if (policy !== undefined) out.propagationPolicy = policy as PropagationPolicy;
  if (raw.orphanDependents !== undefined) out.orphanDependents = raw.orphanDependents;
  return out;
}

/**
 * Options from the body when there is one (the query is then ignored, as in kube), else from the
 * query. A protobuf body needs `protobuf`; without it the body is 415.
 */
export function decodeDeleteOptions(
  body: Buffer,
  opts: { contentType: string; query: URLSearchParams; protobuf?: ProtobufDecoder | undefined },
): DeleteOptions {
  const raw = body.length > 0 ? decodeBody(body, opts) : fromQuery(opts.query);
  return validate(raw);
}

// metainternalversion.ListOptions from the query (DecodeParameters) and ValidateListOptions
// (apis/meta/internalversion/validation), with kube's messages and order of checks.
import { newBadRequest, newInvalid } from '../../machinery/errors/index.js';
import {
  parseSelector as parseFieldSelector,
  Selector as FieldSelector,
} from '../../machinery/fields/index.js';
import { parseSelector as parseLabelSelector } from '../../machinery/labels/index.js';
import { FieldError, newPath } from '../../machinery/validation/index.js';
import type { ListOptions } from '../../registry/rest/options.js';
import type { ResourceVersionMatch } from '../../storage/interfaces.js';
import { boolParam, int64Param } from './query-params.js';

export interface DecodedListOptions {
  readonly options: ListOptions;
  readonly watch: boolean;
  /** The parsed field selector (`metadata.name` pins a single object). */
  readonly fieldSelector: FieldSelector;
}

interface RawListOptions {
  labelSelector: string;
  fieldSelector: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  resourceVersion: string;
  resourceVersionMatch: string;
  timeoutSeconds: number | undefined;
  limit: number;
  continue: string;
  sendInitialEvents: boolean | undefined;
}

function readRaw(query: URLSearchParams): RawListOptions {
  // Integers convert (and fail) before the selectors are parsed, as in kube's two-step conversion.
  const timeoutSeconds = int64Param(query, 'timeoutSeconds');
  const limit = int64Param(query, 'limit') ?? 0;
  return {
    labelSelector: query.get('labelSelector') ?? '',
    fieldSelector: query.get('fieldSelector') ?? '',
    watch: boolParam(query, 'watch') ?? false,
    allowWatchBookmarks: boolParam(query, 'allowWatchBookmarks') ?? false,
    resourceVersion: query.get('resourceVersion') ?? '',
    resourceVersionMatch: query.get('resourceVersionMatch') ?? '',
    timeoutSeconds,
    limit,
    continue: query.get('continue') ?? '',
    sendInitialEvents: boolParam(query, 'sendInitialEvents'),
  };
}

const listOptionsKind = { group: 'meta.k8s.io', kind: 'ListOptions' };
const rvm = newPath('resourceVersionMatch');

function validateList(o: RawListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (match !== '') {
    if (o.resourceVersion === '') {
      errs.push(
        FieldError.forbidden(rvm, 'resourceVersionMatch is forbidden unless resourceVersion is provided'),
      );
    }
    if (o.continue !== '')
      errs.push(FieldError.forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      errs.push(FieldError.notSupported(rvm, match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && o.resourceVersion === '0') {
      errs.push(
        FieldError.forbidden(rvm, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
      );
    }
  }
  if (o.sendInitialEvents !== undefined) {
    errs.push(FieldError.forbidden(newPath('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  }
  return errs;
}

function validateWatch(o: RawListOptions): FieldError[] {
  const errs: FieldError[] = [];
  const match = o.resourceVersionMatch;
  if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push(
      FieldError.forbidden(rvm, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
    );
  }
  if (match !== '') {
    if (o.sendInitialEvents === undefined) {
      errs.push(
        FieldError.forbidden(
          rvm,
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ),
      );
    }
    if (match !== 'NotOlderThan') errs.push(FieldError.notSupported(rvm, match, ['NotOlderThan']));
    if (o.continue !== '')
      errs.push(FieldError.forbidden(rvm, 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}

function toOptions(o: RawListOptions): ListOptions {
  const out: ListOptions = {};
  if (o.labelSelector !== '') out.labelSelector = o.labelSelector;
  if (o.fieldSelector !== '') out.fieldSelector = o.fieldSelector;
  if (o.resourceVersion !== '') out.resourceVersion = o.resourceVersion;
  if (o.resourceVersionMatch !== '')
    out.resourceVersionMatch = o.resourceVersionMatch as ResourceVersionMatch;
  if (o.limit !== 0) out.limit = o.limit;
  if (o.continue !== '') out.continue = o.continue;
  if (o.timeoutSeconds !== undefined) out.timeoutSeconds = o.timeoutSeconds;
  if (o.allowWatchBookmarks) out.allowWatchBookmarks = true;
  if (o.sendInitialEvents !== undefined) out.sendInitialEvents = o.sendInitialEvents;
  return out;
}

/**
 * Decodes and validates list (and watch) options. `forceWatch` is the legacy `/watch/` path,
 * which validates as a watch whatever `?watch` says.
 */
export function decodeListOptions(query: URLSearchParams, forceWatch = false): DecodedListOptions {
  const raw = readRaw(query);
  const labels = parseLabelSelector(raw.labelSelector);
  if (!labels.ok) throw newBadRequest(labels.message);
  const fields = parseFieldSelector(raw.fieldSelector);
  if (!fields.ok) throw newBadRequest(fields.message);
  const watch = raw.watch || forceWatch;
  const errs = raw.watch ? validateWatch(raw) : validateList(raw);
  if (errs.length > 0) throw newInvalid(listOptionsKind, '', errs);
  return { options: toOptions(raw), watch, fieldSelector: fields.selector };
}

/** The field selector string for one named object (a watch of a single item). */
export function nameFieldSelector(name: string): FieldSelector {
  return FieldSelector.of([{ field: 'metadata.name', operator: '=', value: name }]);
}

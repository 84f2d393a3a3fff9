// The parts of a CRD spec beside the schema (apiextensions-apiserver/pkg/apis/apiextensions/
// validation/validation.go): subresources, printer columns, deprecation warnings, conversion.
import type {
  CustomResourceColumnDefinition,
  CustomResourceConversion,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
} from '../../api/apiextensions/v1/crd.js';
import {
  FieldError,
  isDNS1035Label,
  type ErrorList,
  type FieldPath,
} from '../../machinery/validation/index.js';
import { validateWebhookService, validateWebhookURL } from '../admissionregistration/webhook-client.js';

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
import { caBundleError } from './ca-bundle.js';

const conversionReviewVersions = ['v1', 'v1beta1'];

/** validateSimpleJSONPath. */
function validateSimpleJSONPath(s: string, path: FieldPath): ErrorList {
  if (s === '') return [FieldError.invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [FieldError.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** ValidateCustomResourceDefinitionSubresources. */
export function validateSubresources(
  sub: CustomResourceSubresources | undefined,
  path: FieldPath,
): ErrorList {
  const scale = sub?.scale;
  if (scale === undefined) return [];
  const errs: ErrorList = [];
  const check = (value: string | undefined, name: string, prefix: string): void => {
    const at = path.child(`scale.${name}`);
    if ((value ?? '') === '') {
      errs.push(FieldError.required(at, ''));
      return;
    }
    const pathErrs = validateSimpleJSONPath(value ?? '', at);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!(value ?? '').startsWith(`.${prefix}.`))
      errs.push(FieldError.invalid(at, value, `should be a json path under .${prefix}`));
  };
  check(scale.specReplicasPath, 'specReplicasPath', 'spec');
  check(scale.statusReplicasPath, 'statusReplicasPath', 'status');
  const selector = scale.labelSelectorPath ?? '';
  if (selector !== '') {
    const at = path.child('scale.labelSelectorPath');
    const pathErrs = validateSimpleJSONPath(selector, at);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.'))
      errs.push(FieldError.invalid(at, selector, 'should be a json path under either .spec or .status'));
  }
  return errs;
}

/** ValidateCustomResourceColumnDefinition. */
export function validateColumn(col: CustomResourceColumnDefinition, path: FieldPath): ErrorList {
  const errs: ErrorList = [];
  if (((col.name as string | undefined) ?? '') === '') errs.push(FieldError.required(path.child('name'), ''));
  const typeDetail = `must be one of ${printerColumnTypes.join(',')}`;
  const type = (col.type as string | undefined) ?? '';
  if (type === '') errs.push(FieldError.required(path.child('type'), typeDetail));
  else if (!printerColumnTypes.includes(type))
    errs.push(FieldError.invalid(path.child('type'), type, typeDetail));
  if ((col.format ?? '') !== '' && !columnFormats.includes(col.format ?? ''))
    errs.push(
      FieldError.invalid(path.child('format'), col.format, `must be one of ${columnFormats.join(',')}`),
    );
  const jsonPath = (col.jsonPath as string | undefined) ?? '';
  if (jsonPath === '') errs.push(FieldError.required(path.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(jsonPath, path.child('JSONPath')));
  return errs;
}

/** validateDeprecationWarning. */
export function validateDeprecation(v: CustomResourceDefinitionVersion, path: FieldPath): ErrorList {
  const warning = v.deprecationWarning;
  if (warning === undefined) return [];
  const at = path.child('deprecationWarning');
  if (v.deprecated !== true)
    return [FieldError.invalid(at, warning, 'can only be set for deprecated versions')];
  const errs: ErrorList = [];
  if (warning.length > 256) errs.push(FieldError.invalid(at, warning, 'must be <= 256 characters long'));
  if (warning === '') errs.push(FieldError.invalid(at, warning, 'must not be an empty string'));
  return errs;
}

/**
 * validateCustomResourceConversion. `allowInvalidCABundle` is kube's ratchet: a create, or an update
 * of a CRD that is not Established or whose bundle already did not load, may carry a caBundle that
 * loads no certificate (the CRD is then not Established, InvalidCABundle).
 */
export function validateConversion(
  conversion: CustomResourceConversion | undefined,
  path: FieldPath,
  allowInvalidCABundle = true,
): ErrorList {
  if (conversion === undefined) return [];
  const errs: ErrorList = [];
  const strategy = (conversion.strategy as string | undefined) ?? '';
  if (strategy === '') errs.push(FieldError.required(path.child('strategy'), ''));
  else if (strategy !== 'None' && strategy !== 'Webhook')
    errs.push(FieldError.notSupported(path.child('strategy'), strategy, ['None', 'Webhook']));
  const webhook = conversion.webhook;
  if (strategy !== 'Webhook') {
    if (webhook?.clientConfig !== undefined)
      errs.push(
        FieldError.forbidden(
          path.child('webhookClientConfig'),
          'should not be set when strategy is not set to Webhook',
        ),
      );
    if ((webhook?.conversionReviewVersions ?? []).length > 0)
      errs.push(
        FieldError.forbidden(
          path.child('conversionReviewVersions'),
          'should not be set when strategy is not set to Webhook',
        ),
      );
    return errs;
  }
  const cc = webhook?.clientConfig;
  const ccPath = path.child('webhookClientConfig');
  if (cc === undefined) errs.push(FieldError.required(ccPath, 'required when strategy is set to Webhook'));
  else if ((cc.url === undefined) === (cc.service === undefined))
    errs.push(FieldError.required(ccPath, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateWebhookURL(ccPath.child('url'), cc.url));
  else if (cc.service !== undefined)
    errs.push(...validateWebhookService(ccPath.child('service'), cc.service));
  const caBundle = cc?.caBundle ?? '';
  const caError = allowInvalidCABundle ? undefined : caBundleError(caBundle);
  if (caError !== undefined)
    errs.push(
      FieldError.invalid(ccPath.child('caBundle'), caBundle, `unable to load root certificates: ${caError}`),
    );
  const versions = webhook?.conversionReviewVersions ?? [];
  const vPath = path.child('conversionReviewVersions');
  if (versions.length === 0) errs.push(FieldError.required(vPath, ''));
  else {
    const seen = new Set<string>();
    versions.forEach((v, i) => {
      if (seen.has(v)) {
        errs.push(FieldError.invalid(vPath.index(i), v, 'duplicate version'));
        return;
      }
      seen.add(v);
      for (const msg of isDNS1035Label(v)) errs.push(FieldError.invalid(vPath.index(i), v, msg));
    });
    if (!versions.some((v) => conversionReviewVersions.includes(v)))
      errs.push(
        FieldError.invalid(
          vPath,
          versions,
          `must include at least one of ${conversionReviewVersions.join(', ')}`,
        ),
      );
  }
  return errs;
}

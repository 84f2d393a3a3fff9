// APIService validation (k8s.io/kube-aggregator/pkg/apis/apiregistration/validation/validation.go).
import { apiServiceConditionStatuses, type APIService } from '../../../api/apiregistration/v1/api-service.js';
import {
  FieldError,
  FieldPath,
  isDNS1035Label,
  isDNS1123Subdomain,
  isValidPathSegmentName,
  validateObjectMeta,
  type ErrorList,
} from '../../../machinery/validation/index.js';

/** The name must be a path segment and `<spec.version>.<spec.group>`. */
function nameValidator(apiService: APIService): (name: string) => string[] {
  const required = `${apiService.spec.version ?? ''}.${apiService.spec.group ?? ''}`;
  return (name) => {
    const segment = isValidPathSegmentName(name);
    if (segment.length > 0) return segment;
    return name === required ? [] : [`must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`];
  };
}

/** The decoded length of a base64 caBundle, as Go's []byte holds it. */
const caBundleBytes = (caBundle: string): number => Buffer.from(caBundle, 'base64').length;

export function validateAPIService(apiService: APIService): ErrorList {
  const spec = apiService.spec;
  const errs = validateObjectMeta(apiService.metadata ?? {}, {
    requiresNamespace: false,
    validateName: nameValidator(apiService),
  });
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  if (group === '' && version !== 'v1')
    errs.push(
      FieldError.required(
        FieldPath.of('spec', 'group'),
        'only v1 may have an empty group and it better be legacy kube',
      ),
    );
  if (group !== '')
    for (const m of isDNS1123Subdomain(group))
      errs.push(FieldError.invalid(FieldPath.of('spec', 'group'), group, m));
  for (const m of isDNS1035Label(version))
    errs.push(FieldError.invalid(FieldPath.of('spec', 'version'), version, m));
  const gpm = spec.groupPriorityMinimum;
  if (gpm <= 0 || gpm > 20000)
    errs.push(
      FieldError.invalid(
        FieldPath.of('spec', 'groupPriorityMinimum'),
        gpm,
        'must be positive and less than 20000',
      ),
    );
  const vp = spec.versionPriority;
  if (vp <= 0 || vp > 1000)
    errs.push(
      FieldError.invalid(FieldPath.of('spec', 'versionPriority'), vp, 'must be positive and less than 1000'),
    );
  const caBundle = spec.caBundle ?? '';
  const insecure = spec.insecureSkipTLSVerify ?? false;
  const service = spec.service ?? null;
  if (service === null) {
    if (caBundle !== '')
      errs.push(
        FieldError.invalid(
          FieldPath.of('spec', 'caBundle'),
          `${String(caBundleBytes(caBundle))} bytes`,
          'local APIServices may not have a caBundle',
        ),
      );
    if (insecure)
      errs.push(
        FieldError.invalid(
          FieldPath.of('spec', 'insecureSkipTLSVerify'),
          insecure,
          'local APIServices may not have insecureSkipTLSVerify',
        ),
      );
    return errs;
  }
  if ((service.namespace ?? '') === '')
    errs.push(FieldError.required(FieldPath.of('spec', 'service', 'namespace')));
  if ((service.name ?? '') === '') errs.push(FieldError.required(FieldPath.of('spec', 'service', 'name')));
  if (insecure && caBundle !== '')
    errs.push(
      FieldError.invalid(
        FieldPath.of('spec', 'insecureSkipTLSVerify'),
        insecure,
        'may not be true if caBundle is present',
      ),
    );
  return errs;
}

/** ValidateAPIServiceStatus: every condition's status is True, False or Unknown. */
export function validateAPIServiceStatus(apiService: APIService): ErrorList {
  const errs: ErrorList = [];
  (apiService.status?.conditions ?? []).forEach((c, i) => {
    if (!(apiServiceConditionStatuses as readonly string[]).includes(c.status))
      errs.push(
        FieldError.notSupported(
          FieldPath.of('status', 'conditions').index(i).child('status'),
          c.status,
          apiServiceConditionStatuses,
        ),
      );
  });
  return errs;
}

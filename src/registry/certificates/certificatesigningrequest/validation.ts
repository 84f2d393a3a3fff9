// CertificateSigningRequest validation (pkg/apis/certificates/validation/validation.go and
// ValidateSignerName in pkg/apis/core/validation): create, update, /status and /approval differ in
// which of the request's status parts they may change; tolerances follow what the stored object
// already holds.
import { X509Certificate } from 'node:crypto';
import {
  keyUsages,
  legacyUnknownSignerName,
  type CertificateSigningRequest,
  type CertificateSigningRequestCondition,
} from '../../../api/certificates/v1/certificate-signing-request.js';
import {
  compareGoStrings,
  FieldError,
  FieldPath,
  isDNS1123Label,
  isDNS1123Subdomain,
  type ErrorList,
} from '../../../machinery/validation/index.js';
import { pemBlocks, wireBytes } from './pem.js';
import { checkCertificateRequest } from './request.js';

const approvalTypes = ['Approved', 'Denied'] as const;
const trueOnlyTypes: readonly string[] = ['Approved', 'Denied', 'Failed'];
const sortedUsages = [...keyUsages].sort(compareGoStrings);

export interface CSRValidationOptions {
  readonly allowSettingApprovalConditions?: boolean;
  readonly allowSettingCertificate?: boolean;
}

/** ValidateSignerName: `<domain with a dot>/<path>`, both made of DNS names, 571 characters at most. */
export function validateSignerName(path: FieldPath, signerName: string): ErrorList {
  if (signerName === '') return [FieldError.required(path)];
  const segments = signerName.split('/');
  const [domain, rest] = segments;
  if (segments.length !== 2 || domain === undefined || rest === undefined)
    return [
      FieldError.invalid(
        path,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  const errs: ErrorList = [];
  if (domain.length > 253) errs.push(FieldError.tooLong(path, 253));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length === 0) continue;
    for (const msg of msgs)
      errs.push(FieldError.invalid(path, domain, `validating label "${label}": ${msg}`));
    break;
  }
  if (domainLabels.length < 2)
    errs.push(
      FieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'),
    );
  for (const label of rest.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length === 0) continue;
    for (const msg of msgs) errs.push(FieldError.invalid(path, rest, `validating label "${label}": ${msg}`));
    break;
  }
  const maxLength = 253 + (253 + 63 + 1) + 1;
  if (signerName.length > maxLength) errs.push(FieldError.tooLong(path, maxLength));
  return errs;
}

/** Why status.certificate is not a list of PEM CERTIFICATE blocks, or undefined. */
function checkCertificate(certificate: string | undefined): string | undefined {
  const bytes = wireBytes(certificate);
  if (bytes.length === 0) return undefined;
  const blocks = pemBlocks(bytes.toString('latin1'));
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found "${block.type}"`;
    if (block.hasHeaders) return 'no PEM block headers are permitted';
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  return undefined;
}

const conditionsOf = (csr: CertificateSigningRequest): CertificateSigningRequestCondition[] =>
  csr.status?.conditions ?? [];
const findConditions = (csr: CertificateSigningRequest, type: string): CertificateSigningRequestCondition[] =>
  conditionsOf(csr).filter((c) => c.type === type);
const hasDuplicateTypes = (csr: CertificateSigningRequest): boolean =>
  new Set(conditionsOf(csr).map((c) => c.type)).size !== conditionsOf(csr).length;

interface Tolerances {
  readonly bothApprovedAndDenied: boolean;
  readonly legacySignerName: boolean;
  readonly duplicateConditionTypes: boolean;
  readonly emptyConditionType: boolean;
  readonly arbitraryCertificate: boolean;
  readonly unknownUsages: boolean;
  readonly duplicateUsages: boolean;
}

/** getValidationOptions: what the stored object already got away with stays allowed. */
function tolerances(csr: CertificateSigningRequest, old: CertificateSigningRequest | undefined): Tolerances {
  if (old === undefined)
    return {
      bothApprovedAndDenied: false,
      legacySignerName: false,
      duplicateConditionTypes: false,
      emptyConditionType: false,
      arbitraryCertificate: false,
      unknownUsages: false,
      duplicateUsages: false,
    };
  const usages = old.spec?.usages ?? [];
  return {
    bothApprovedAndDenied:
      findConditions(old, 'Approved').length > 0 && findConditions(old, 'Denied').length > 0,
    legacySignerName: old.spec?.signerName === legacyUnknownSignerName,
    duplicateConditionTypes: hasDuplicateTypes(old),
    emptyConditionType: conditionsOf(old).some((c) => c.type === ''),
    arbitraryCertificate:
      (csr.status?.certificate ?? '') === (old.status?.certificate ?? '') ||
      checkCertificate(old.status?.certificate) !== undefined,
    unknownUsages: usages.some((u) => !(keyUsages as readonly string[]).includes(u)),
    duplicateUsages: new Set(usages).size !== usages.length,
  };
}

function validateUsages(usages: readonly string[], path: FieldPath, tol: Tolerances): ErrorList {
  const errs: ErrorList = [];
  if (usages.length === 0) errs.push(FieldError.required(path));
  if (!tol.unknownUsages)
    usages.forEach((u, i) => {
      if (!(keyUsages as readonly string[]).includes(u))
        errs.push(FieldError.notSupported(path.index(i), u, sortedUsages));
    });
  if (!tol.duplicateUsages)
    usages.forEach((u, i) => {
      if (usages.indexOf(u) !== i) errs.push(FieldError.duplicate(path.index(i), u));
    });
  return errs;
}

function validateConditions(csr: CertificateSigningRequest, tol: Tolerances): ErrorList {
  const path = FieldPath.of('status', 'conditions');
  const errs: ErrorList = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const type = c.type;
    if (!tol.emptyConditionType && type === '') errs.push(FieldError.required(path.index(i).child('type')));
    const allowed = trueOnlyTypes.includes(type) ? ['True'] : ['False', 'True', 'Unknown'];
    const status = c.status;
    if (status === '') errs.push(FieldError.required(path.index(i).child('status')));
    else if (!allowed.includes(status))
      errs.push(FieldError.notSupported(path.index(i).child('status'), status, allowed));
    if (!tol.bothApprovedAndDenied) {
      if (type === 'Approved') approved = true;
      if (type === 'Denied') denied = true;
      if ((type === 'Approved' && denied) || (type === 'Denied' && approved))
        errs.push(FieldError.invalid(path, type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (!tol.duplicateConditionTypes) {
      if (seen.has(type)) errs.push(FieldError.duplicate(path.index(i).child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

function validateCSR(csr: CertificateSigningRequest, tol: Tolerances): ErrorList {
  const spec = FieldPath.of('spec');
  const errs: ErrorList = [];
  const requestError = checkCertificateRequest(csr.spec?.request);
  if (requestError !== undefined)
    errs.push(FieldError.invalid(spec.child('request'), csr.spec?.request ?? '', requestError));
  errs.push(...validateUsages(csr.spec?.usages ?? [], spec.child('usages'), tol));
  const signerName = csr.spec?.signerName ?? '';
  if (!tol.legacySignerName && signerName === legacyUnknownSignerName)
    errs.push(
      FieldError.invalid(
        spec.child('signerName'),
        signerName,
        'the legacy signerName is not allowed via this API version',
      ),
    );
  else errs.push(...validateSignerName(spec.child('signerName'), signerName));
  const expiration = csr.spec?.expirationSeconds;
  if (expiration !== undefined && expiration < 600)
    errs.push(
      FieldError.invalid(
        spec.child('expirationSeconds'),
        expiration,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  errs.push(...validateConditions(csr, tol));
  if (!tol.arbitraryCertificate) {
    const certError = checkCertificate(csr.status?.certificate);
    if (certError !== undefined)
      errs.push(FieldError.invalid(FieldPath.of('status', 'certificate'), '<certificate data>', certError));
  }
  return errs;
}

export function validateCertificateSigningRequestCreate(csr: CertificateSigningRequest): ErrorList {
  return validateCSR(csr, tolerances(csr, undefined));
}

/** validateCertificateSigningRequestUpdate with what the endpoint may set. */
export function validateCertificateSigningRequestUpdate(
  csr: CertificateSigningRequest,
  old: CertificateSigningRequest,
  opts: CSRValidationOptions = {},
): ErrorList {
  const errs = validateCSR(csr, tolerances(csr, old));
  const conditionsPath = FieldPath.of('status', 'conditions');
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (findConditions(csr, type).length < findConditions(old, type).length)
      errs.push(FieldError.forbidden(conditionsPath, `updates may not remove a condition of type "${type}"`));
  }
  if (opts.allowSettingApprovalConditions !== true) {
    for (const type of approvalTypes) {
      const before = findConditions(old, type);
      const after = findConditions(csr, type);
      if (after.length > before.length)
        errs.push(FieldError.forbidden(conditionsPath, `updates may not add a condition of type "${type}"`));
      else if (after.length === before.length && JSON.stringify(after) !== JSON.stringify(before))
        errs.push(
          FieldError.forbidden(
            conditionsPath,
            `updates may not modify a condition of type "${type}"\n${JSON.stringify(before)} → ${JSON.stringify(after)}`,
          ),
        );
    }
  }
  const certificate = csr.status?.certificate ?? '';
  const oldCertificate = old.status?.certificate ?? '';
  if (certificate !== oldCertificate) {
    if (opts.allowSettingCertificate !== true)
      errs.push(
        FieldError.forbidden(
          FieldPath.of('status', 'certificate'),
          'updates may not set certificate content',
        ),
      );
    else if (oldCertificate !== '')
      errs.push(
        FieldError.forbidden(
          FieldPath.of('status', 'certificate'),
          'updates may not modify existing certificate content',
        ),
      );
  }
  return errs;
}

// A container's and a pod's security settings as kube validates them: ValidateSecurityContext,
// validateSeccompProfileField, ValidateAppArmorProfileField and
// validateWindowsSecurityContextOptions (pkg/apis/core/validation/validation.go), and the user and
// group IDs both carry.
import type { SecurityContext } from '../../../../api/core/v1/container.js';
import type {
  SecurityProfile,
  WindowsSecurityContextOptions,
} from '../../../../api/core/v1/security-options.js';
import {
  byteLength,
  FieldError,
  goQuote,
  inclusiveRangeError,
  isDNS1123Subdomain,
  omitValue,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { validateLocalDescendingPath } from './volume-paths.js';

const maxID = 2147483647;

/** IsValidUserID / IsValidGroupID: 0 to MaxInt32. */
export function validateID(id: number | undefined, path: FieldPath): ErrorList {
  return id !== undefined && (id < 0 || id > maxID)
    ? [FieldError.invalid(path, id, inclusiveRangeError(0, maxID))]
    : [];
}

const procMountTypes = ['Default', 'Unmasked'];
const seccompTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const appArmorTypes = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** validateSeccompProfileField: a known type; a profile path only for Localhost, and a relative one. */
export function validateSeccompProfileField(sp: SecurityProfile | undefined, path: FieldPath): ErrorList {
  if (sp === undefined) return [];
  const errs: ErrorList = [];
  // The decoder does not enforce required fields: a body may leave the type out.
  const type = (sp as Partial<SecurityProfile>).type ?? '';
  if (type === '')
    errs.push(FieldError.required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!seccompTypes.includes(type))
    errs.push(FieldError.notSupported(path.child('type'), type, seccompTypes));
  if (type === 'Localhost') {
    if (sp.localhostProfile === undefined)
      errs.push(
        FieldError.required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'),
      );
    else errs.push(...validateLocalDescendingPath(sp.localhostProfile, path.child('localhostProfile')));
  } else if (sp.localhostProfile !== undefined) {
    // kube prints the internal struct with %#v; the pointer's address differs on every run.
    errs.push(
      new FieldError({
        type: 'FieldValueInvalid',
        field: path.child('localhostProfile').toString(),
        badValue: omitValue,
        detail: `core.SeccompProfile{Type:${goQuote(type)}, LocalhostProfile:(*string)(0xc000000000)}: can only be set when seccomp type is Localhost`,
      }),
    );
  }
  return errs;
}

/** ValidateAppArmorProfileField: a known type; an unpadded profile name, only for Localhost. */
export function validateAppArmorProfileField(
  profile: SecurityProfile | undefined,
  path: FieldPath,
): ErrorList {
  if (profile === undefined) return [];
  const errs: ErrorList = [];
  const type = (profile as Partial<SecurityProfile>).type ?? '';
  const profilePath = path.child('localhostProfile');
  const localhost = profile.localhostProfile;
  if (type === 'Localhost') {
    if (localhost === undefined || localhost === '')
      errs.push(FieldError.required(profilePath, 'must be set when AppArmor type is Localhost'));
    else if (localhost.trim() !== localhost)
      errs.push(FieldError.invalid(profilePath, localhost, 'must not be padded with whitespace'));
    if (localhost !== undefined && byteLength(localhost) > maxAppArmorProfileLength)
      errs.push(FieldError.tooLong(profilePath, maxAppArmorProfileLength));
  } else if (type === 'RuntimeDefault' || type === 'Unconfined') {
    if (localhost !== undefined)
      errs.push(
        FieldError.invalid(profilePath, localhost, 'can only be set when AppArmor type is Localhost'),
      );
  } else if (type === '') {
    errs.push(FieldError.required(path.child('type'), 'type is required when appArmorProfile is set'));
  } else {
    errs.push(FieldError.notSupported(path.child('type'), type, appArmorTypes));
  }
  return errs;
}

// PATH_MAX - 1.
const maxAppArmorProfileLength = 4095;
const maxGMSACredentialSpecKiB = 64;
const maxRunAsUserNameDomainLength = 256;
const maxRunAsUserNameUserLength = 104;

/** Go's [[:cntrl:]]: an ASCII control character. */
function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

const netBiosDomain = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/u;
const dnsDomainLabel = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const dnsDomain = new RegExp(`^${dnsDomainLabel}(?:\\.${dnsDomainLabel})*$`);
const invalidUserNameCharacters = /["/\\:;|=,+*?<>@[\]]/;
const onlyDotsAndSpaces = /^[. ]+$/;

/** The checks of a runAsUserName that has exactly one or no backslash. */
function runAsUserNameErrors(name: string): string[] {
  const parts = name.split('\\');
  const [domain, user] = parts.length === 1 ? ['', parts[0] ?? ''] : [parts[0] ?? '', parts[1] ?? ''];
  const msgs: string[] = [];
  if (byteLength(domain) >= maxRunAsUserNameDomainLength)
    msgs.push(`runAsUserName's Domain length must be under ${maxRunAsUserNameDomainLength} characters`);
  if (parts.length === 2 && !netBiosDomain.test(domain) && !dnsDomain.test(domain))
    msgs.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
  if (user === '') msgs.push("runAsUserName's User cannot be empty");
  else if (byteLength(user) > maxRunAsUserNameUserLength)
    msgs.push(`runAsUserName's User length must not be longer than ${maxRunAsUserNameUserLength} characters`);
  if (onlyDotsAndSpaces.test(user)) msgs.push("runAsUserName's User cannot contain only periods or spaces");
  if (invalidUserNameCharacters.test(user))
    msgs.push(`runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`);
  return msgs;
}

/** validateWindowsSecurityContextOptions. */
export function validateWindowsOptions(
  options: WindowsSecurityContextOptions | undefined,
  path: FieldPath,
): ErrorList {
  if (options === undefined) return [];
  const errs: ErrorList = [];
  const { gmsaCredentialSpecName: specName, gmsaCredentialSpec: spec, runAsUserName: userName } = options;
  if (specName !== undefined)
    for (const msg of isDNS1123Subdomain(specName))
      errs.push(FieldError.invalid(path.child('gmsaCredentialSpecName'), specName, msg));
  if (spec !== undefined) {
    const specPath = path.child('gmsaCredentialSpec');
    if (spec === '')
      errs.push(FieldError.invalid(specPath, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (byteLength(spec) > maxGMSACredentialSpecKiB * 1024)
      errs.push(
        FieldError.invalid(
          specPath,
          spec,
          `gmsaCredentialSpec size must be under ${maxGMSACredentialSpecKiB} KiB`,
        ),
      );
  }
  if (userName !== undefined) {
    const userPath = path.child('runAsUserName');
    let msgs: string[];
    if (userName === '') msgs = ['runAsUserName cannot be an empty string'];
    else if (hasControlCharacter(userName)) msgs = ['runAsUserName cannot contain control characters'];
    else if (userName.split('\\').length > 2) msgs = ['runAsUserName cannot contain more than one backslash'];
    else msgs = runAsUserNameErrors(userName);
    for (const msg of msgs) errs.push(FieldError.invalid(userPath, userName, msg));
  }
  return errs;
}

/**
 * ValidateSecurityContext of a container. `hostUsers` is the pod's (unknown when undefined, and then
 * an Unmasked procMount is not checked against it). Privileged containers are allowed, as a cluster
 * started with --allow-privileged allows them.
 */
export function validateSecurityContext(
  sc: SecurityContext | undefined,
  path: FieldPath,
  hostUsers: boolean | undefined,
): ErrorList {
  if (sc === undefined) return [];
  const errs: ErrorList = [
    ...validateID(sc.runAsUser, path.child('runAsUser')),
    ...validateID(sc.runAsGroup, path.child('runAsGroup')),
  ];
  if (sc.procMount !== undefined) {
    const procPath = path.child('procMount');
    if (!procMountTypes.includes(sc.procMount))
      errs.push(FieldError.notSupported(procPath, sc.procMount, procMountTypes));
    if (hostUsers === true && sc.procMount === 'Unmasked')
      errs.push(FieldError.invalid(procPath, sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...validateSeccompProfileField(sc.seccompProfile, path.child('seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    // kube prints its Go struct as the value; the JSON object is the nearest text.
    if (sc.privileged === true)
      errs.push(
        FieldError.invalid(
          path,
          sc,
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      );
    for (const cap of sc.capabilities?.add ?? [])
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(
          FieldError.invalid(
            path,
            sc,
            'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
          ),
        );
  }
  errs.push(...validateWindowsOptions(sc.windowsOptions, path.child('windowsOptions')));
  errs.push(...validateAppArmorProfileField(sc.appArmorProfile, path.child('appArmorProfile')));
  return errs;
}

// core/v1 security options shared by PodSecurityContext and a container's SecurityContext:
// SELinuxOptions, SeccompProfile, AppArmorProfile, WindowsSecurityContextOptions, Sysctl.
import type { APIModule } from '../../schema/api-module.js';
import { coreV1 } from '../../schema/api-module.js';
import { pointer } from '../../schema/protobuf.js';
import { bool, str, struct } from '../../schema/builders.js';

export interface SELinuxOptions {
  user?: string;
  role?: string;
  type?: string;
  level?: string;
}

/** SeccompProfile and AppArmorProfile share this shape. */
export interface SecurityProfile {
  type: string;
  localhostProfile?: string;
}

export interface WindowsSecurityContextOptions {
  gmsaCredentialSpecName?: string;
  gmsaCredentialSpec?: string;
  runAsUserName?: string;
  hostProcess?: boolean;
}

export interface Sysctl {
  name: string;
  value: string;
}

export const SE_LINUX_OPTIONS = coreV1('SELinuxOptions');
export const SECCOMP_PROFILE = coreV1('SeccompProfile');
export const APP_ARMOR_PROFILE = coreV1('AppArmorProfile');
export const WINDOWS_OPTIONS = coreV1('WindowsSecurityContextOptions');
export const SYSCTL = coreV1('Sysctl');

const profile = (what: string, types: string[]): ReturnType<typeof struct> =>
  struct(
    `The ${what} profile a container runs with.`,
    {
      localhostProfile: str('The profile loaded on the node; only for type Localhost.'),
      type: str('Localhost, RuntimeDefault or Unconfined.', { enum: types }),
    },
    { required: ['type'] },
  );

export const securityOptionsModule: APIModule = {
  definitions: {
    [SE_LINUX_OPTIONS]: struct('SELinux labels applied to a container.', {
      level: str(),
      role: str(),
      type: str(),
      user: str(),
    }),
    [SECCOMP_PROFILE]: profile('seccomp', ['Localhost', 'RuntimeDefault', 'Unconfined']),
    [APP_ARMOR_PROFILE]: profile('AppArmor', ['Localhost', 'RuntimeDefault', 'Unconfined']),
    [WINDOWS_OPTIONS]: struct('Windows-specific options.', {
      gmsaCredentialSpec: str(),
      gmsaCredentialSpecName: str(),
      hostProcess: bool(),
      runAsUserName: str(),
    }),
    [SYSCTL]: struct(
      'A namespaced sysctl set for the pod.',
      { name: str(), value: str() },
      { required: ['name', 'value'] },
    ),
  },
  protobuf: {
    [SE_LINUX_OPTIONS]: { user: 1, role: 2, type: 3, level: 4 },
    [SECCOMP_PROFILE]: { type: 1, localhostProfile: pointer(2) },
    [APP_ARMOR_PROFILE]: { type: 1, localhostProfile: pointer(2) },
    [WINDOWS_OPTIONS]: {
      gmsaCredentialSpecName: pointer(1),
      gmsaCredentialSpec: pointer(2),
      runAsUserName: pointer(3),
      hostProcess: pointer(4),
    },
    [SYSCTL]: { name: 1, value: 2 },
  },
};

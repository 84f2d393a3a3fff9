// /version: the shape of k8s.io/apimachinery/pkg/version.Info. kubectl and client libraries read
// major/minor to choose behaviour (and the kubectl dispatcher picks its binary by minor), so we
// report the Kubernetes API level Capstan serves; gitVersion names Capstan in its build metadata,
// which semver comparisons ignore (a `-suffix` would make v1.33.0 a pre-release and fail Helm's
// `kubeVersion: ">=1.x"` constraints).
import { arch, platform } from 'node:process';
import type { HttpResponse } from '../http/types.js';

export interface VersionInfo {
  readonly major: string;
  readonly minor: string;
  readonly emulationMajor: string;
  readonly emulationMinor: string;
  readonly minCompatibilityMajor: string;
  readonly minCompatibilityMinor: string;
  readonly gitVersion: string;
  readonly gitCommit: string;
  readonly gitTreeState: string;
  readonly buildDate: string;
  readonly goVersion: string;
  readonly compiler: string;
  readonly platform: string;
}

/** The Kubernetes minor release whose API Capstan serves. */
export const kubeMinor = 33;
export const capstanVersion = '0.1.0';

const goArch: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

export function capstanVersionInfo(overrides: Partial<VersionInfo> = {}): VersionInfo {
  return Object.freeze({
    major: '1',
    minor: String(kubeMinor),
    emulationMajor: '1',
    emulationMinor: String(kubeMinor),
    minCompatibilityMajor: '1',
    minCompatibilityMinor: String(kubeMinor - 1),
    gitVersion: `v1.${kubeMinor}.0+capstan.${capstanVersion}`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '1970-01-01T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'tsc',
    platform: `${platform}/${goArch[arch] ?? arch}`,
    ...overrides,
  });
}

export function versionHandler(info: VersionInfo): (res: HttpResponse) => void {
  const body = JSON.stringify(info, null, 2);
  return (res) => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.end(body);
  };
}

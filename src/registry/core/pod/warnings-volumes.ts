// The volume part of pkg/api/pod/warnings.go (1.33): in-tree plugins kube has retired, claim
// templates of ephemeral volumes, and keys of one configMap, secret, downwardAPI or projected volume
// written to the same file (or to a file and a directory) so that one silently wins or mounting fails.
import type { Volume, VolumeProjection } from '../../../api/core/v1/volume.js';
import { goQuote } from '../../../machinery/validation/index.js';
import { warningsForPersistentVolumeClaimSpec } from '../persistentvolumeclaim/warnings.js';
import type { PodWarningWalk } from './warnings-containers.js';

type VolumeWalk = Pick<PodWarningWalk, 'specPath' | 'warnings' | 'gitRepoVolumeDriver'>;

/** A volume source kube no longer serves: the member, its name in the warning's path, the words. */
type RetiredPlugin = readonly [field: keyof Volume, pathName: string, message: string];

// In kube's order, which checks an ephemeral volume's claim template between glusterfs and cephfs.
// gitRepo's words are for the GitRepoVolumeDriver gate off (its 1.33 default); on, kube drops the
// second half (gitRepoDriverOn).
const retiredBeforeEphemeral: readonly RetiredPlugin[] = [
  ['photonPersistentDisk', 'photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'gitRepo', 'deprecated in v1.11, and disabled by default in v1.33+'],
  ['scaleIO', 'scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
];
const gitRepoDriverOn = 'deprecated in v1.11';
const retiredAfterEphemeral: readonly RetiredPlugin[] = [
  ['cephfs', 'cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

function warnVolume(walk: VolumeWalk, v: Volume, i: number): void {
  const warnRetired = (plugins: readonly RetiredPlugin[]) => {
    for (const [field, pathName, message] of plugins)
      if (v[field] !== undefined) {
        const words = field === 'gitRepo' && walk.gitRepoVolumeDriver ? gitRepoDriverOn : message;
        walk.warnings.push(
          `${walk.specPath().child('volumes').index(i).child(pathName).toString()}: ${words}`,
        );
      }
  };
  warnRetired(retiredBeforeEphemeral);
  const claimTemplate = v.ephemeral?.volumeClaimTemplate;
  if (claimTemplate !== undefined)
    walk.warnings.push(
      ...warningsForPersistentVolumeClaimSpec(
        walk.specPath().child('volumes').index(i).child('ephemeral', 'volumeClaimTemplate', 'spec'),
        claimTemplate.spec,
      ),
    );
  warnRetired(retiredAfterEphemeral);
}

/** The members whose presence makes a volume worth checking in kube's order. */
const checkedSources: ReadonlySet<string> = new Set([
  ...retiredBeforeEphemeral.map(([field]) => field),
  'ephemeral',
  ...retiredAfterEphemeral.map(([field]) => field),
]);

/** Whether the volume has a source warnVolume looks at: a volume has a name and one source. */
function hasCheckedSource(v: Volume): boolean {
  for (const key in v) if (checkedSources.has(key)) return true;
  return false;
}

/** The per-volume warnings, volume by volume, added to `walk.warnings`. */
export function warnVolumes(walk: VolumeWalk, volumes: readonly Volume[]): void {
  volumes.forEach((v, i) => {
    if (hasCheckedSource(v)) warnVolume(walk, v, i);
  });
}

/** Where a file comes from: its path and, inside a projected volume, the source that writes it. */
interface PathAndSource {
  readonly path: string;
  readonly source: string;
}

const describe = (ps: PathAndSource): string =>
  ps.source === '' ? goQuote(ps.path) : `${goQuote(ps.path)} (${ps.source})`;

/** strings.TrimRight(path, "/"). */
function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** The files already placed that `needle` collides with: the same file, or one inside the other. */
function overlapsWith(placed: readonly PathAndSource[], needle: PathAndSource): PathAndSource[] {
  if (needle.path === '') return [];
  const found: PathAndSource[] = [];
  for (const item of placed) {
    if (item.path === '') continue;
    if (
      (item.path === needle.path && item.source === needle.source) ||
      `${item.path}/`.startsWith(`${needle.path}/`) ||
      `${needle.path}/`.startsWith(`${item.path}/`)
    )
      found.push(item);
  }
  return found;
}

/** Places each file in turn, saying "<file> with <earlier file>" for every collision. */
function placeAll(files: readonly PathAndSource[], placed: PathAndSource[]): string[] {
  const overlaps: string[] = [];
  for (const file of files) {
    const ps = { path: trimSlashes(file.path), source: file.source };
    for (const other of overlapsWith(placed, ps)) overlaps.push(`${describe(ps)} with ${describe(other)}`);
    placed.push(ps);
  }
  return overlaps;
}

const pathsOf = (items: readonly { readonly path: string }[], source: string): PathAndSource[] =>
  items.map((item) => ({ path: item.path, source }));

const isEmptyProjection = (p: VolumeProjection): boolean =>
  p.configMap === undefined &&
  p.secret === undefined &&
  p.downwardAPI === undefined &&
  p.serviceAccountToken === undefined &&
  p.clusterTrustBundle === undefined;

/** The files one projection writes; undefined where kube's switch matches no case. */
function projectionPaths(p: VolumeProjection): PathAndSource[] | undefined {
  if (p.configMap?.items !== undefined)
    return pathsOf(p.configMap.items, `ConfigMap ${goQuote(p.configMap.name ?? '')}`);
  if (p.secret?.items !== undefined) return pathsOf(p.secret.items, `Secret ${goQuote(p.secret.name ?? '')}`);
  if (p.downwardAPI?.items !== undefined) return pathsOf(p.downwardAPI.items, 'DownwardAPI');
  if (p.serviceAccountToken !== undefined)
    return [{ path: p.serviceAccountToken.path, source: 'ServiceAccountToken' }];
  const bundle = p.clusterTrustBundle;
  if (bundle !== undefined)
    return [
      {
        path: bundle.path ?? '',
        source: `ClusterTrustBundle ${goQuote(bundle.name ?? bundle.signerName ?? '')}`,
      },
    ];
  return undefined;
}

function projectedOverlaps(v: Volume, sources: readonly VolumeProjection[]): string[] {
  const warnings: string[] = [];
  const placed: PathAndSource[] = [];
  // kube keeps the previous source's files when a source matches none of its cases (a configMap
  // without items, say) and places them again, so they collide with themselves; so does Capstan.
  let files: PathAndSource[] = [];
  for (const source of sources) {
    if (isEmptyProjection(source)) {
      warnings.push(`volume ${goQuote(v.name)} (Projected) has no sources provided`);
      continue;
    }
    files = projectionPaths(source) ?? files;
    for (const overlap of placeAll(files, placed))
      warnings.push(`volume ${goQuote(v.name)} (Projected): overlapping paths: ${overlap}`);
  }
  return warnings;
}

/** warningsForOverlappingVirtualPaths: files of one volume that land on each other. */
export function warningsForOverlappingPaths(volumes: readonly Volume[]): string[] {
  const warnings: string[] = [];
  const report = (v: Volume, kind: string, overlaps: readonly string[]) => {
    for (const overlap of overlaps)
      warnings.push(`volume ${goQuote(v.name)} (${kind}): overlapping paths: ${overlap}`);
  };
  for (const v of volumes) {
    if (v.configMap?.items !== undefined)
      report(v, `ConfigMap ${goQuote(v.configMap.name ?? '')}`, placeAll(pathsOf(v.configMap.items, ''), []));
    if (v.secret?.items !== undefined)
      report(v, `Secret ${goQuote(v.secret.secretName ?? '')}`, placeAll(pathsOf(v.secret.items, ''), []));
    if (v.downwardAPI?.items !== undefined)
      report(v, 'DownwardAPI', placeAll(pathsOf(v.downwardAPI.items, ''), []));
    if (v.projected !== undefined) warnings.push(...projectedOverlaps(v, v.projected.sources ?? []));
  }
  return warnings;
}

// Which etcd releases answer WatchProgressRequest only after the events it covers: 3.4.31+ and
// 3.5.13+ (and every later minor), the versions kube's etcd feature_support_checker accepts.

function parse(version: string): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  if (m === null) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

export function supportsRequestProgress(version: string): boolean {
  const v = parse(version);
  if (v === null) return false;
  const [major, minor, patch] = v;
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

// --console: the web console at /console/, on by default for the embedded store (sqlite, memory),
// off for etcd3 unless asked for (a shared cluster's operators choose it).

export const consolePrefix = '/console/';

export function consoleEnabled(o: {
  readonly console: boolean | undefined;
  readonly storage: { readonly backend: string };
}): boolean {
  return o.console ?? o.storage.backend !== 'etcd3';
}

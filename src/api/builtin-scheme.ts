// The Scheme with every built-in kind Capstan serves. Built once per process and sealed: nothing
// registers into it afterwards, so every server in the process shares it, and with it whatever is
// derived from it (the stamped definitions, plans compiled from it), as kube's servers share
// legacyscheme.Scheme.
import { builtinGroupVersions } from './api-groups.js';
import { metaV1Modules } from './meta/v1/index.js';
import { metricsV1beta1Module } from './metrics/v1beta1/schema.js';
import { metricsV1beta1 } from './metrics/v1beta1/types.js';
import { Scheme } from './scheme.js';
import { utilModule } from './util/int-or-string.js';

let built: Scheme | undefined;

/** The process's shared built-in scheme (sealed). */
export function builtinScheme(): Scheme {
  built ??= newBuiltinScheme().seal();
  return built;
}

/** A scheme of its own with the built-in kinds, open to more (tests that add kinds). */
export function newBuiltinScheme(): Scheme {
  const scheme = new Scheme();
  scheme.register(utilModule);
  for (const module of metaV1Modules) scheme.register(module);
  for (const gv of builtinGroupVersions) {
    for (const module of gv.modules) scheme.register(module);
    scheme.addMetaToGroupVersion(gv.group, gv.version);
  }
  scheme.addMetaToGroupVersion('meta.k8s.io', 'v1');
  // Served only by the simulated cluster (--simulate-metrics), not a built-in group version; its
  // kinds are known either way, for the OpenAPI of the servers that serve it.
  scheme.register(metricsV1beta1Module);
  scheme.addMetaToGroupVersion(metricsV1beta1.group, metricsV1beta1.version);
  return scheme;
}

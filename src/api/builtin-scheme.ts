// The Scheme with every built-in kind Capstan serves.
import { builtinGroupVersions } from './api-groups.js';
import { metaV1Modules } from './meta/v1/index.js';
import { Scheme } from './scheme.js';
import { utilModule } from './util/int-or-string.js';

export function builtinScheme(): Scheme {
  const scheme = new Scheme();
  scheme.register(utilModule);
  for (const module of metaV1Modules) scheme.register(module);
  for (const gv of builtinGroupVersions) {
    for (const module of gv.modules) scheme.register(module);
    scheme.addMetaToGroupVersion(gv.group, gv.version);
  }
  scheme.addMetaToGroupVersion('meta.k8s.io', 'v1');
  return scheme;
}

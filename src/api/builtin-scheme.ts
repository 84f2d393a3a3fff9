// The Scheme with every built-in kind Capstan serves.
import { coreV1Modules } from './core/v1/index.js';
import { metaV1Modules } from './meta/v1/index.js';
import { Scheme } from './scheme.js';
import { utilModule } from './util/int-or-string.js';

export function builtinScheme(): Scheme {
  const scheme = new Scheme();
  scheme.register(utilModule);
  for (const module of metaV1Modules) scheme.register(module);
  for (const module of coreV1Modules) scheme.register(module);
  scheme.addMetaToGroupVersion('', 'v1');
  scheme.addMetaToGroupVersion('meta.k8s.io', 'v1');
  return scheme;
}

// The `yaml` package, loaded on first use. Loading it costs about 45 ms of CPU, a sixth of the
// start budget, while most servers never read a YAML body, answer in YAML or load a YAML config.
// The load is synchronous so YAML decoding and encoding stay synchronous; under Node, `yaml` is
// CommonJS, so this loads the very file a static `import ... from 'yaml'` would.
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const requireCommonJS = createRequire(import.meta.url);
let loaded: typeof Yaml | undefined;

export function yamlLibrary(): typeof Yaml {
  loaded ??= requireCommonJS('yaml') as typeof Yaml;
  return loaded;
}

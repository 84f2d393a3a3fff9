// Generated bad patches against one in-process server (issue 23): no answer of 500 or more, none
// missing, no invalid object stored. BAD_INPUT_SEED and BAD_INPUT_RUNS change seed and count.
import { patchRequest } from './support/bad-input/patches.js';
import { badInputSuite } from './support/bad-input/suite.js';

badInputSuite({
  name: 'bad-input-patches-core',
  kinds: ['Pod', 'Service', 'ConfigMap', 'Secret'],
  requests: patchRequest,
  defaultRuns: 1600,
});

// Generated bad create and update bodies against one in-process server (issue 23): no answer of 500 or more, none
// missing, no invalid object stored. BAD_INPUT_SEED and BAD_INPUT_RUNS change seed and count.
import { bodyRequest } from './support/bad-input/bodies.js';
import { badInputSuite } from './support/bad-input/suite.js';

badInputSuite({
  name: 'bad-input-bodies-core',
  kinds: ['Pod', 'Service', 'ConfigMap', 'Secret'],
  requests: bodyRequest,
  defaultRuns: 2200,
});

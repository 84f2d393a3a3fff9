// Generated bad query strings, watches and deletes against one in-process server (issue 23): no answer of 500 or more, none
// missing, no invalid object stored. BAD_INPUT_SEED and BAD_INPUT_RUNS change seed and count.
import { queryRequest } from './support/bad-input/queries.js';
import { badInputSuite } from './support/bad-input/suite.js';

badInputSuite({
  name: 'bad-input-queries',
  kinds: ['Pod', 'Service', 'ConfigMap', 'Secret', 'Deployment', 'Widget', 'Namespace', 'ClusterRole', 'PriorityClass'],
  requests: queryRequest,
  defaultRuns: 3400,
});

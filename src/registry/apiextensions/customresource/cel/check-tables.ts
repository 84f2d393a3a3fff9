// The names the static check (check.ts) knows by their result: type names, functions answering a
// bool or a string, the casts, and the operators the planner evaluates itself.
export const typeIdents = new Set([
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
  'dyn',
]);
export const boolFunctions = new Set([
  '_&&_',
  '_||_',
  '!_',
  '_==_',
  '_!=_',
  '_<_',
  '_<=_',
  '_>_',
  '_>=_',
  '@in',
  '@not_strictly_false',
  'matches',
  'startsWith',
  'endsWith',
  'contains',
  'isSorted',
  'hasValue',
]);
export const stringFunctions = new Set([
  'lowerAscii',
  'upperAscii',
  'trim',
  'replace',
  'substring',
  'charAt',
  'join',
  'find',
  'format',
]);
// Operators the planner evaluates itself rather than through the function registry.
export const plannerOperators = new Set(['_&&_', '_||_', '_[_]', '_?_:_', '@not_strictly_false']);
export const castFunctions = new Set<string>([
  'int',
  'uint',
  'double',
  'string',
  'bool',
  'bytes',
  'timestamp',
  'duration',
  'type',
]);

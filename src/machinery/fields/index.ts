export * from './escape.js';
export * from './selector.js';
export * from './parse-selector.js';
export * from './selector-from-set.js';

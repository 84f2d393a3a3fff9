export * from './status-reasons.js';
export * from './status-error.js';
export * from './constructors.js';
export * from './status-order.js';

// Selector operators, as k8s.io/apimachinery/pkg/selection/operator.go.

export const operators = ['!', '=', '==', 'in', '!=', 'notin', 'exists', 'gt', 'lt'] as const;
export type Operator = (typeof operators)[number];

/** Operators that take values, in the order kube lists them in its parse errors. */
export const binaryOperators = [
  'in',
  'notin',
  '=',
  '==',
  '!=',
  'gt',
  'lt',
] as const satisfies readonly Operator[];

/** Operators that take no values. */
export const unaryOperators = ['exists', '!'] as const satisfies readonly Operator[];

// The scalar kinds of CEL literals and operators, as cel-go's standard declarations give them
// (with kube's CrossTypeNumericComparisons): the type check (check.ts) and the cost estimator's
// types (cost-types.ts) share them.

export type ScalarKindName =
  'null' | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'timestamp' | 'duration' | 'dyn';

type ConstantKind = Extract<
  ScalarKindName,
  'null' | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'dyn'
>;
const constantKinds: Readonly<Record<string, ConstantKind>> = {
  nullValue: 'null',
  boolValue: 'bool',
  int64Value: 'int',
  uint64Value: 'uint',
  doubleValue: 'double',
  stringValue: 'string',
  bytesValue: 'bytes',
};

/** The CEL type of a literal, by the parser's case of its constant. */
export const constantKind = (kind: string | undefined): ConstantKind => constantKinds[kind ?? ''] ?? 'dyn';

const numeric = new Set(['int', 'uint', 'double']);
const comparable = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration']);
const celTypeNames: Readonly<Record<string, string>> = {
  timestamp: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
};

/** Whether a kind is a scalar that operators take (not null, dyn, or a container). */
export const isOperandKind = (kind: string): boolean => comparable.has(kind);

/** A kind's name in cel-go's messages. */
export const celTypeName = (kind: string): string => celTypeNames[kind] ?? kind;

/**
 * What a binary operator over two scalars of known kinds gives, or 'mismatch' where no overload
 * takes the pair; undefined for other operators or where a side is dynamic, an object or a
 * container (left to the evaluation).
 */
export function operatorKind(f: string, x: string, y: string): ScalarKindName | 'mismatch' | undefined {
  if (!comparable.has(x) || !comparable.has(y)) return undefined;
  const kind = x as ScalarKindName;
  const sameKind = x === y;
  switch (f) {
    case '_==_':
    case '_!=_':
      return sameKind ? 'bool' : 'mismatch';
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return sameKind || (numeric.has(x) && numeric.has(y)) ? 'bool' : 'mismatch';
    case '_+_':
      if (sameKind && (numeric.has(x) || x === 'string' || x === 'bytes' || x === 'duration')) return kind;
      if (x === 'timestamp' && y === 'duration') return 'timestamp';
      if (x === 'duration' && y === 'timestamp') return 'timestamp';
      return 'mismatch';
    case '_-_':
      if (sameKind && (numeric.has(x) || x === 'duration')) return kind;
      if (x === 'timestamp')
        return y === 'timestamp' ? 'duration' : y === 'duration' ? 'timestamp' : 'mismatch';
      return 'mismatch';
    case '_*_':
    case '_/_':
      return sameKind && numeric.has(x) ? kind : 'mismatch';
    case '_%_':
      return sameKind && (x === 'int' || x === 'uint') ? kind : 'mismatch';
    default:
      return undefined;
  }
}

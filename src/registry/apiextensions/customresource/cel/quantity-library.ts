// kube's Quantity library for CEL (k8s.io/apiserver pkg/cel/library/quantity.go): quantity(),
// isQuantity(), sign(), and a Quantity's comparisons, sums and conversions. @bufbuild/cel takes
// object values as protobuf messages only, so a Quantity is a message `kubernetes.Quantity` made
// here (kube's type name), holding the exact value with the factors of ten moved into the
// exponent: two quantities of one value are one message, so `==` compares values as kube's Equal
// does (`quantity('200M') == quantity('0.2G')`).
import type * as Cel from '@bufbuild/cel';
import type * as Protobuf from '@bufbuild/protobuf';
import { messageType, type CelModules } from './message-types.js';
import {
  addQuantities,
  approximateFloat,
  compareQuantities,
  isIntegerQuantity,
  parseQuantity,
  quantitySign,
  type Quantity,
} from '../../../../machinery/quantity/quantity.js';

/** The message type of a Quantity, for the environment's registry. */
export type QuantityDesc = Protobuf.DescMessage;

function quantityDesc(m: CelModules): QuantityDesc {
  return messageType(m, 'kubernetes', [
    'Quantity',
    [
      ['unscaled', 'string'],
      ['exponent', 'int32'],
    ],
  ]);
}

const minInt64 = -(1n << 63n);
const maxInt64 = (1n << 63n) - 1n;

/** Quantity.AsInt64: the value when it is whole and fits in an int64. */
function asInt64(q: Quantity): bigint | undefined {
  if (!isIntegerQuantity(q)) return undefined;
  const v =
    q.exponent >= 0 ? q.unscaled * 10n ** BigInt(q.exponent) : q.unscaled / 10n ** BigInt(-q.exponent);
  return v < minInt64 || v > maxInt64 ? undefined : v;
}

const negated = (q: Quantity): Quantity => ({ ...q, unscaled: -q.unscaled });
const fromInt = (n: bigint): Quantity => ({ unscaled: n, exponent: 0, format: 'DecimalExponent' });

/** The Quantity library's functions, and the message type its values have. */
export function quantityLibrary(m: CelModules): { funcs: Cel.CelFunc[]; desc: QuantityDesc } {
  const { cel, protobuf } = m;
  const desc = quantityDesc(m);
  const Q = cel.objectType(desc);
  const { STRING, BOOL, INT, DOUBLE } = cel.CelScalar;

  const toMessage = (q: Quantity): Protobuf.Message => {
    let [unscaled, exponent] = [q.unscaled, q.exponent];
    if (unscaled === 0n) exponent = 0;
    else
      while (unscaled % 10n === 0n) {
        unscaled /= 10n;
        exponent++;
      }
    return protobuf.create(desc, { unscaled: String(unscaled), exponent });
  };
  const fromValue = (v: Cel.CelValue<typeof Q>): Quantity => {
    const fields = v.message as unknown as { unscaled: string; exponent: number };
    return { unscaled: BigInt(fields.unscaled || '0'), exponent: fields.exponent, format: 'DecimalSI' };
  };
  const parse = (s: string): Quantity => {
    const parsed = parseQuantity(s);
    if (!parsed.ok) throw new Error(parsed.error);
    return parsed.quantity;
  };
  const compare = (a: Cel.CelValue<typeof Q>, b: Cel.CelValue<typeof Q>): -1 | 0 | 1 =>
    compareQuantities(fromValue(a), fromValue(b));

  return {
    desc,
    funcs: [
      cel.celFunc('quantity', [STRING], Q, (s) => toMessage(parse(s))),
      cel.celFunc('isQuantity', [STRING], BOOL, (s) => parseQuantity(s).ok),
      cel.celFunc('sign', [Q], INT, (q) => BigInt(quantitySign(fromValue(q)))),
      cel.celMethod('isGreaterThan', Q, [Q], BOOL, function (o) {
        return compare(this, o) === 1;
      }),
      cel.celMethod('isLessThan', Q, [Q], BOOL, function (o) {
        return compare(this, o) === -1;
      }),
      cel.celMethod('compareTo', Q, [Q], INT, function (o) {
        return BigInt(compare(this, o));
      }),
      cel.celMethod('asApproximateFloat', Q, [], DOUBLE, function () {
        return approximateFloat(fromValue(this));
      }),
      cel.celMethod('isInteger', Q, [], BOOL, function () {
        return asInt64(fromValue(this)) !== undefined;
      }),
      cel.celMethod('asInteger', Q, [], INT, function () {
        const v = asInt64(fromValue(this));
        if (v === undefined) throw new Error('cannot convert value to integer');
        return v;
      }),
      cel.celMethod('add', Q, [Q], Q, function (o) {
        return toMessage(addQuantities(fromValue(this), fromValue(o)));
      }),
      cel.celMethod('add', Q, [INT], Q, function (n) {
        return toMessage(addQuantities(fromValue(this), fromInt(n)));
      }),
      cel.celMethod('sub', Q, [Q], Q, function (o) {
        return toMessage(addQuantities(fromValue(this), negated(fromValue(o))));
      }),
      cel.celMethod('sub', Q, [INT], Q, function (n) {
        return toMessage(addQuantities(fromValue(this), negated(fromInt(n))));
      }),
    ],
  };
}

// A resource.Quantity as a number, enough to compare requests with limits and total them.
const suffixes: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const pattern = /^([+-]?[0-9.]+)(?:([eE][+-]?[0-9]+)|([a-zA-Z]*))$/;

/** The value of a quantity; NaN when it does not parse. */
export function parseQuantity(text: string): number {
  const m = pattern.exec(text.trim());
  if (m === null) return Number.NaN;
  const base = Number(m[1]);
  if (m[2] !== undefined) return Number(`${m[1]}${m[2]}`);
  const mult = suffixes[m[3] ?? ''];
  return mult === undefined ? Number.NaN : base * mult;
}

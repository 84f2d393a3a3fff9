// Self-checking values for the crash test: a torn or mixed-up row cannot parse back.
import { createHash } from 'node:crypto';

export const crashKeys: readonly string[] = Array.from({ length: 8 }, (_, i) => `/crash/k${i}`);

const pad = 'x'.repeat(700);

export function crashValue(key: string, round: number): Buffer {
  const body = `${key}|${round}|${pad}`;
  const sum = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return Buffer.from(`${body}|${sum}`);
}

/** The round a value was written in, or null when it is not a whole value for `key`. */
export function parseCrashValue(key: string, value: Buffer): number | null {
  const text = value.toString('utf8');
  const cut = text.lastIndexOf('|');
  const body = text.slice(0, cut);
  const sum = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const [k, round] = body.split('|');
  if (cut < 0 || text.slice(cut + 1) !== sum || k !== key) return null;
  return Number(round);
}

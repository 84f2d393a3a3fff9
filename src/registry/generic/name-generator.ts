// names.SimpleNameGenerator (k8s.io/apiserver/pkg/storage/names/generate.go): the base, cut to leave
// room, plus five random characters from an alphabet without vowels or look-alikes.
import { randomInt } from 'node:crypto';
import type { NameGenerator } from '../rest/strategy.js';

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
const maxNameLength = 63;
const randomLength = 5;
const maxGeneratedNameLength = maxNameLength - randomLength;

function randomString(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += alphanums.charAt(randomInt(alphanums.length));
  return out;
}

export const simpleNameGenerator: NameGenerator = {
  generateName(base: string): string {
    const cut = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
    return cut + randomString(randomLength);
  },
};

// The message builders of k8s.io/apimachinery/pkg/util/validation (now api/validate/content).
import { Buffer } from 'node:buffer';

/** `must be no more than N characters`. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `must be non-empty`. */
export function emptyError(): string {
  return 'must be non-empty';
}

/** A regex failure with examples, spaced exactly as kube's RegexError (note the `,  or`). */
export function regexError(msg: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${format}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${format}')`;
}

/** `must be between lo and hi, inclusive`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** The length Go's len() gives a string: its UTF-8 bytes. */
export function byteLength(s: string): number {
  // Every UTF-16 unit is at least one byte, and ASCII-only text is exactly one.
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) return Buffer.byteLength(s, 'utf8');
  }
  return s.length;
}

// Warning headers as kube's warning recorder writes them (endpoints/filters/warning.go and
// util/net NewWarningHeader): `299 - "text"`, each text once, the total held under 4 KiB by
// truncating every text to 256 characters once the limit is crossed.

const totalMaxSize = 4 * 1024;
const perItemMaxLength = 256;

/**
 * `299 - "text"` with `"` and `\` escaped; UTF-8 bytes carried as latin1 so node writes them raw.
 * Control characters (a warning can quote a client's field name) become spaces, as Go's header
 * writer does with line breaks: Node refuses to write them at all.
 */
export function warningHeader(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const printable = text.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  const quoted = `"${printable.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(`299 - ${quoted}`, 'utf8').toString('latin1');
}

export class WarningRecorder {
  readonly #seen = new Set<string>();
  readonly #ordered: string[] = [];
  #headers: string[] = [];
  #written = 0;
  #truncating = false;

  add(text: string): void {
    if (text === '' || this.#seen.has(text)) return;
    if (this.#written >= totalMaxSize && this.#truncating) return;
    this.#seen.add(text);
    this.#ordered.push(text);
    const header = warningHeader(this.#truncating ? truncate(text) : text);
    if (this.#written + header.length <= totalMaxSize || this.#truncating) {
      this.#written += header.length;
      this.#headers.push(header);
      return;
    }
    this.#truncating = true;
    this.#headers = this.#ordered.map((t) => warningHeader(truncate(t)));
    this.#written = this.#headers.reduce((n, h) => n + h.length, 0);
  }

  /** Header values to send, in the order the warnings were added. */
  headers(): readonly string[] {
    return this.#headers;
  }
}

function truncate(text: string): string {
  let out = '';
  let n = 0;
  for (const rune of text) {
    if (n++ === perItemMaxLength) return out;
    out += rune;
  }
  return text;
}

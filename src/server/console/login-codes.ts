// One-time login links: `npm start` prints /console/#login=CODE; the console trades the code for
// the admin token once (POST /console/login), after which the code is spent.
import { randomBytes } from 'node:crypto';

export class LoginCodes {
  readonly #codes = new Map<string, string>();

  /** A new code that hands `token` over once. */
  issue(token: string): string {
    const code = randomBytes(24).toString('base64url');
    this.#codes.set(code, token);
    return code;
  }

  /** The token for a code never redeemed before; the code is spent either way. */
  redeem(code: string): string | undefined {
    const token = this.#codes.get(code);
    this.#codes.delete(code);
    return token;
  }
}

// Tests' evaluation of one CEL expression in the rules' environment, with nothing bound.
import { loadCel } from '../customresource/cel/load.js';

/** The expression's value, or `error: <message>` when it evaluates to an error. */
export async function evaluateCel(expr: string): Promise<unknown> {
  const { cel, env, parse } = await loadCel();
  const out = cel.plan(env, parse(expr))({});
  return out instanceof Error ? `error: ${out.message}` : out;
}

// Parsing CEL as kube 1.33's environment reads it, where that goes beyond @bufbuild/cel's parser:
// optional syntax and the optMap macros (optional-syntax.ts) and two-variable comprehensions
// (two-var-comprehensions.ts). The source is parsed with its optional marks blanked
// (optional-marks.ts), then the tree is rewritten bottom-up, each node after its children.
import {
  CelSyntaxError,
  childrenOf,
  ExprBuilder,
  mapChildren,
  type Expr,
  type Parsed,
} from './expr-builder.js';
import type { CelModule } from './load.js';
import { markOptionalSyntax } from './optional-marks.js';
import { mayUseOptMap, OptionalRewrites } from './optional-syntax.js';
import { expandTwoVar, mayUseTwoVar } from './two-var-comprehensions.js';

/**
 * The deepest nesting of a parsed tree that the type check, the cost estimate and the evaluation
 * (each recursive, on Node's stack of a few thousand frames) take. cel-go's parser limits the
 * nesting of its grammar's rules to 250, which a chain of selects or of one operator does not
 * reach; such a chain is taken here up to this depth.
 */
const maxDepth = 1000;

/** The depth of a parsed tree, walked without recursion. */
function depthOf(root: Expr): number {
  let deepest = 0;
  const stack: [Expr, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [e, depth] = top;
    if (depth > deepest) deepest = depth;
    for (const child of childrenOf(e)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function checkDepth(root: Expr): void {
  if (depthOf(root) > maxDepth)
    throw new CelSyntaxError(0, `expression recursion limit exceeded: ${maxDepth}`);
}

/**
 * Parses an expression as cel-go does in kube's environment, `optionalVars` naming the variables
 * bound to optionals. Throws the parser's error for text that does not parse, and a
 * CelSyntaxError (read alike) for syntax nothing here evaluates.
 */
export function parseExtended(
  cel: CelModule,
  source: string,
  optionalVars: ReadonlySet<string> = new Set(),
): Parsed {
  const marked = markOptionalSyntax(source);
  let parsed: Parsed;
  try {
    parsed = cel.parse(marked?.text ?? source);
  } catch (err) {
    // The parser recurses per nesting level; cel-go's stops at 250 levels with this error.
    if (err instanceof RangeError) throw new CelSyntaxError(0, 'expression recursion limit exceeded: 250');
    throw err;
  }
  checkDepth(parsed.expr);
  const namesOptional = [...optionalVars].some((name) => source.includes(name));
  if (marked === undefined && !namesOptional && !mayUseOptMap(source) && !mayUseTwoVar(source)) return parsed;
  const positions = parsed.sourceInfo?.positions;
  if (positions === undefined) return parsed;
  const b = new ExprBuilder(positions);
  const optional = new OptionalRewrites(b, marked?.marks, optionalVars);
  const walk = (e: Expr): Expr => {
    e.exprKind = mapChildren(e, walk);
    const k = e.exprKind;
    switch (k.case) {
      case 'selectExpr':
        return optional.select(e);
      case 'callExpr':
        return expandTwoVar(b, e, k.value) ?? optional.call(e, k.value);
      case 'listExpr':
        return optional.list(e);
      case 'structExpr':
        return optional.struct(e);
      case 'constExpr':
      case 'identExpr':
      case 'comprehensionExpr':
      case undefined:
        return e;
    }
  };
  parsed.expr = walk(parsed.expr);
  const unused = optional.unused();
  if (unused !== undefined) throw new CelSyntaxError(unused, "unsupported syntax '?'");
  // The expansions nest deeper than what they expand (an optMap by four levels).
  checkDepth(parsed.expr);
  return parsed;
}

// How the console's front-end (src/console) is bundled: shared by the server's build from sources
// (console-assets.ts) and, in the same words, by scripts/build.mjs for dist/console.

/** esbuild options: preact TSX, one ES module and one stylesheet with hashed names, minified. */
export function consoleBuildOptions(root: string): Record<string, unknown> {
  return {
    absWorkingDir: root,
    entryPoints: ['src/console/main.tsx'],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    entryNames: '[name]-[hash]',
    logLevel: 'warning',
  };
}

/** The one HTML page: it loads the hashed script and stylesheet, relative to /console/. */
export function consoleIndexHtml(assets: readonly string[]): string {
  const css = assets.filter((a) => a.endsWith('.css')).map((a) => `<link rel="stylesheet" href="${a}">`);
  const js = assets.filter((a) => a.endsWith('.js')).map((a) => `<script type="module" src="${a}"></script>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Capstan console</title>
${css.join('\n')}
</head><body><div id="app"></div>
${js.join('\n')}
</body></html>
`;
}

// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Each layer may import only the layers below it (docs/architecture.md). The patterns start at `../`:
// a layer is reached by going up out of one, while `./storage/v1` under src/api is an API group.
const layers = ['api', 'machinery', 'storage', 'registry', 'admission', 'endpoints', 'server', 'controlplane', 'cmd'];
const layerRules = layers.map((layer, i) => ({
  files: [`src/${layer}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: layers.slice(i + 1).map((higher) => ({
          group: [`../**/${higher}/**`, `../**/${higher}`],
          message: `src/${layer} may not import src/${higher}: a lower layer never imports a higher one.`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.scratch/', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-params': ['error', 3],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // Decoders return the caller's object type; a type parameter used once is the point there.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // API types are plain data and their enumerations string unions, as in Go: no TypeScript enums.
      // That also leaves strictTypeChecked's rule for values assigned to enums nothing to find, and
      // it cost ~7 % of the lint's time, which runs inside `npm test`.
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a union of string literals, not an enum.' },
      ],
      '@typescript-eslint/no-unsafe-enum-assignment': 'off',
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts', 'src/**/testing/**/*.ts'],
    rules: {
      'max-params': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['it', 'test', 'describe', 'suite'] }] }],
    },
  },
  ...layerRules,
);

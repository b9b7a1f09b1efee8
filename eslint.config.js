// The linter `npm test` runs (npm run lint): typescript-eslint's recommended rules, plus the type-aware
// rules for promises, because this code is mostly asynchronous and a promise nobody awaits loses its
// error (docs/decisions/0027-type-checks-and-lint.md).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'test/artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's describe and it return promises that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      // The code base's two ways of saying "unused on purpose": a leading underscore, and a rest
      // destructuring whose named siblings are the properties left out (`const { id, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A server created before the handler it calls (the issuer needs the port for its URLs) declares the
      // handler with `let` and assigns it once later; as a `const` the early closure would hit its TDZ.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
)

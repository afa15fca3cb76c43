import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import sonarjs from 'eslint-plugin-sonarjs';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  // Complexity, not length: a function is as hard to read as its branches and their
  // nesting (SonarSource's cognitive complexity), whatever its line count; and a
  // ternary inside a ternary is an if/else or a lookup table. The limit is 30 (Sonar's
  // default 15 would flag 85 functions today). Tests are left out.
  {
    files: ['src/**/*.ts', 'commands/**/*.ts', 'scripts/**/*.mjs', 'bin/**/*.js'],
    plugins: { sonarjs },
    rules: {
      'sonarjs/cognitive-complexity': ['error', 30],
      'no-nested-ternary': 'error',
    },
  },
  // Laziness at one boundary: a command group's chunk (src/cli/groups.ts) and the heavy
  // third-party libraries (src/lazy.ts) load on demand; everything else is a static import.
  // src/main.ts turns the compile cache on before it loads the program.
  {
    files: ['src/**/*.ts', 'commands/**/*.ts'],
    ignores: ['src/lazy.ts', 'src/cli/groups.ts', 'src/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression',
          message: 'import statically; a heavy third-party library loads through src/lazy.ts',
        },
      ],
    },
  },
  // The launcher is CommonJS (bin/package.json), so that --version never starts the ES module loader.
  {
    files: ['bin/kagent.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

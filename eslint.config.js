// Lint rules: typescript-eslint's strict and stylistic type-checked sets, zero warnings allowed.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-dev/**', 'dist-check/**', 'node_modules/**', 'coverage/**', 'reports/**', '.demo/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // Numbers in messages are everywhere here (ports, seconds, counts, statuses) and Number's own text is the one wanted;
      // everything else (objects, nullish, booleans, any) must still be turned into text on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // A shorthand callback such as `() => resolve()` or `(m) => lines.push(m)` is read as "call this"; its value goes
      // nowhere by contract. Void used as a value anywhere else (returned, assigned, passed on) is still an error.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // An empty string is a missing value in text read from users and the service ('' → the default): `||` on strings is
      // meant. For numbers, booleans and objects `??` is still required.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // Off: the objects whose keys are deleted are JSON documents (the config block, the settings page's copy of it, a
      // test's mutations of a sync answer) that must be written back without the key; a Map cannot be.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

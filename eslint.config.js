// Lint rules: typescript-eslint's strict and stylistic type-checked sets, zero warnings allowed.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-dev/**', 'dist-check/**', 'node_modules/**', 'coverage/**', 'reports/**', '.demo/**', '.cache/**'] },
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
  // The direction of the door code is checked, not hoped for: data flows transport (webhook/, client/) → door model
  // (door/model/) → HomeKit face (door/*.ts). The transport knows no door; the model knows no HomeKit and no face.
  {
    files: ['src/webhook/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(door|sync)(/|\\.js$)|^(homebridge|hap-nodejs)(/|$)',
              message:
                'webhook/ is transport only: it hands events on (sync/realtime.ts routes them to doors) and imports no door, sync or Homebridge file.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(door|sync|registry|matter)(/|\\.js$)|^(homebridge|hap-nodejs)(/|$)',
              message:
                'client/ is transport only: it reads and writes the service and imports no door, sync, registry, Matter or Homebridge file (what both sides need lives in client/ or util/).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/door/model/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(homebridge|hap-nodejs)(/|$)',
              message:
                'The door model knows nothing of HomeKit: the face (door/garage-door.ts) maps what it decides to services and characteristics.',
            },
            {
              // One level up is the face (the cache record, context.ts, is the model's own).
              regex: '^\\.\\./[^/]+$',
              message: 'The door model must not import the HomeKit face (door/*.ts): the face imports the model, never the other way.',
            },
            {
              regex: '^\\.\\./\\.\\./(webhook|sync|ui)/|^\\.\\./\\.\\./platform\\.js$',
              message: 'The door model is told what happened (by sync/ and the face); it imports no transport, routing or platform file.',
            },
          ],
        },
      ],
    },
  },
  // The settings page's two sides stay apart: ui/server/ runs in Node (forked by the Homebridge UI), ui/page/ in the
  // browser (its own tsconfig, bundled by esbuild); what both use (message shapes, labels, the block and its check) is in
  // ui/shared/, which runs on either side and so imports neither, nor anything of Node.
  {
    files: ['src/ui/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)ui/page/|^\\.\\./page/',
              message: 'The settings server imports nothing of the browser page: what both use lives in src/ui/shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/page/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)ui/server/|^\\.\\./server/|^node:',
              message: 'The browser page imports nothing of the settings server or of Node: what both use lives in src/ui/shared/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)ui/(page|server)/|^\\.\\./(page|server)/|^node:',
              message: 'src/ui/shared/ runs on both sides of the settings page: it imports neither side, and nothing of Node.',
            },
          ],
        },
      ],
    },
  },
  // zod in src/ comes from src/util/zod.ts: zod/mini (classic zod alone costs ~12 ms and ~4 MiB at start, issue 22) with
  // English messages set (zod/mini sets no locale, and its default messages would read only "Invalid input").
  {
    files: ['src/**'],
    ignores: ['src/util/zod.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^zod(\\/|$)/]',
          message: "Import zod as `import * as z from '<path>/util/zod.js'`: zod/mini with English messages, never classic zod.",
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

// ESLint flat config: TypeScript (typescript-eslint), React hooks, and the layout rules of
// docs/architecture.md (who may import the wasm package, which code may import React).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WASM_PACKAGE = {
  group: ['**/engine/pkg/*', './pkg/*'],
  message:
    'Only web/src/engine/worker.ts, conformWorker.ts, jobsWorker.ts and serve.ts load the wasm package; elsewhere talk to the engine through web/src/engine/bridge.ts.',
};

export default defineConfig([
  globalIgnores([
    'dist/',
    'engine/target/',
    'web/src/engine/pkg/',
    'web/src/engine/generated/',
    'test-results/',
    'playwright-report/',
    'blob-report/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The site, in the browser.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs['recommended-latest'].rules,
      'no-restricted-imports': ['error', { patterns: [WASM_PACKAGE] }],
    },
  },
  {
    // The engine's worker side, and the unit tests that load the real wasm in Node.
    files: [
      'web/src/engine/worker.ts',
      'web/src/engine/conformWorker.ts',
      'web/src/engine/jobsWorker.ts',
      'web/src/engine/serve.ts',
      'web/src/**/*.test.{ts,tsx}',
      'web/src/**/*.bench.ts',
      'web/src/capture/testing.ts',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Data-model code and the languages never import React (docs/architecture.md). Which folder
    // may import which is checked by web/src/layers.test.ts.
    files: [
      'web/src/engine/**/*.ts',
      'web/src/model/**/*.ts',
      'web/src/capture/**/*.ts',
      'web/src/i18n/**/*.ts',
    ],
    ignores: ['web/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              message: 'Data-model code never imports React (docs/architecture.md).',
            },
            { name: 'react-dom', message: 'Data-model code never imports React.' },
          ],
          patterns: [WASM_PACKAGE],
        },
      ],
    },
  },
  {
    // Re-allow the wasm package in the worker side after the block above.
    files: [
      'web/src/engine/worker.ts',
      'web/src/engine/conformWorker.ts',
      'web/src/engine/jobsWorker.ts',
      'web/src/engine/serve.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'The engine worker never imports React.' },
            { name: 'react-dom', message: 'The engine worker never imports React.' },
          ],
        },
      ],
    },
  },
  {
    // The service worker of the built site (filled in by scripts/vite-plugin-offline.ts).
    files: ['web/src/offline/sw.template.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    // Build scripts, configuration, the e2e suite: Node.js.
    files: ['scripts/**/*.{js,mjs,ts}', '*.{js,ts}', 'e2e/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'off' },
  },
]);

import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'
import { PREACT_ALIASES, PREACT_JSX } from './build/preact.mjs'

// A project of the root vitest config; its root is apps/web, so paths below are relative to it.
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Preact, as the build (build/preact.mjs): the tests render with what ships.
  oxc: { jsx: PREACT_JSX },
  resolve: {
    // ES modules of the libraries (their CommonJS builds would require React itself, past the aliases).
    conditions: ['module', 'browser', 'development'],
    alias: [...PREACT_ALIASES, { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) }],
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // The React libraries go through Vite, so the aliases reach their imports of React too (left to
    // Node, they would load React itself beside Preact).
    server: {
      deps: {
        inline: [
          /@tanstack\/react-query/,
          /react-router/,
          /react-i18next/,
          /react-hook-form/,
          /@hookform\/resolvers/,
          /lucide-react/,
          /qrcode\.react/,
          /sonner/,
        ],
      },
    },
    // A worker per core on a loaded 2-core machine: a page test that renders, loads its strings and a
    // lazy chunk can take over vitest's default 5 s without anything being wrong.
    testTimeout: 15_000,
  },
})

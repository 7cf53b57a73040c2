import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineProject } from 'vitest/config'

// A project of the root vitest config; its root is apps/web, so paths below are relative to it.
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // A worker per core on a loaded 2-core machine: a page test that renders, loads its strings and a
    // lazy chunk can take over vitest's default 5 s without anything being wrong.
    testTimeout: 15_000,
  },
})

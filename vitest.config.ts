import os from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

// Three tiers: pure unit tests beside the code, web component tests in happy-dom,
// server route tests through app.inject (PGlite, or PostgreSQL when DATABASE_URL is set), and the
// outage tests (real server processes through a PostgreSQL restart).
export default defineConfig({
  test: {
    // A test file per core (vitest's default leaves one core to itself: half the speed on 2 cores).
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      './apps/web/vitest.config.ts',
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/server/test/outage/**'],
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real server processes on a PostgreSQL cluster of the test's own, restarted under load. Run
        // once by scripts/test.sh (it needs no DATABASE_URL, only PostgreSQL's binaries).
        test: {
          name: 'server-outage',
          // One file at a time: each drives real servers through a database restart with tight timings.
          fileParallelism: false,
          include: ['apps/server/test/outage/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
})

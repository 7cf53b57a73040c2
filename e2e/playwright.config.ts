import { defineConfig, devices, type ReporterDescription } from '@playwright/test'

// End-to-end tests in Debian's Chromium against the built server, which global-setup.ts starts on a
// free port (with a real SMTP sink). Never `playwright install`: the browser is /usr/bin/chromium.
// E2E_JSON_REPORT=<file> adds Playwright's json reporter (scripts/test.sh sums it into the summary).

const jsonReport = process.env.E2E_JSON_REPORT

// The specs scripts/test.sh runs against two servers on one PostgreSQL (its e2e-pair suite). E2E_SPECS
// picks a side: 'pair' runs only these, 'single' all the others (each spec runs once in the whole
// suite); unset, everything runs, as a developer expects from `playwright test`.
const pairSpecs = [
  'realtime',
  'handovers',
  'ledger-verification',
  'ledger-witnesses',
  'ledger-erasure',
  'account-deletion',
  'change-password',
  'data-export',
  'avatar',
  'passkeys',
  'lending',
]
// Issue 28: the condition evidence runs on both: the single server on the embedded database, and the
// pair on PostgreSQL (its "done when" names both).
const bothSpecs = ['condition-evidence', 'condition-ledger']
const specs = (names: string[]) => new RegExp(`/(${names.join('|')})\\.spec\\.ts$`)
const pairPattern = specs([...pairSpecs, ...bothSpecs])
const pairOnly = specs(pairSpecs)
const sharedAddress = /shared-address\.spec\.ts/
const side = process.env.E2E_SPECS
const reporter: ReporterDescription[] = [['list']]
if (jsonReport) reporter.push(['json', { outputFile: jsonReport }])

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // A camera for the item photo tests: Chromium's test pattern, permission granted without a prompt.
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
}

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter,
  use: {
    // Set by global setup before the workers load this file.
    baseURL: process.env.E2E_BASE_URL,
    locale: 'en-US',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      // Heavy on purpose (30 browser contexts in a minute): it runs alone, after the others.
      testIgnore: side === 'single' ? [sharedAddress, pairOnly] : sharedAddress,
      ...(side === 'pair' ? { testMatch: pairPattern } : {}),
      use: chromium,
    },
    {
      name: 'shared-address',
      testMatch: /shared-address\.spec\.ts/,
      dependencies: ['chromium'],
      use: chromium,
    },
  ],
})

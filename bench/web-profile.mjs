// Where a signed-in screen's first load spends its time: one visit in Chromium with the CPU slowed 4×
// (Lighthouse's mobile setting), a CPU profile of the page and the moments that matter (first paint,
// LCP, each script and API answer). For looking, not a benchmark: nothing is written to README.
//
//   node bench/web-profile.mjs [screen]      screen: dashboard (default), circles, item, ledger, …
//   BENCH_PROFILE_OUT=<file.cpuprofile>      keeps the profile (open it in Chrome's DevTools)
//   NO_MINIFY=1 npm run build first          function names as in the source
import { writeFile } from 'node:fs/promises'
import { chromium } from 'playwright-core'
import { startApp } from './lib.mjs'
import { seed, signIn } from './web-seed.mjs'

const screen = process.argv[2] ?? 'dashboard'
const app = await startApp()
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  const { session, screens } = await seed(app)
  const url = screens.find(([name]) => name === screen)?.[1]
  if (!url) throw new Error(`no screen ${screen}: ${screens.map(([name]) => name).join(', ')}`)
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-GB' })
  await signIn(context, app.base, session)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await page.addInitScript(() => {
    globalThis.__marks = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        globalThis.__marks.push([e.entryType, e.name, e.startTime, e.duration])
    }).observe({ entryTypes: ['paint', 'largest-contentful-paint', 'longtask'] })
  })
  const events = []
  const start = Date.now()
  page.on('requestfinished', (request) => {
    const { pathname, search } = new URL(request.url())
    events.push([Date.now() - start, request.resourceType(), `${pathname}${search}`])
  })
  await cdp.send('Profiler.start')
  await page.goto(`${app.base}${url}`, { waitUntil: 'networkidle' })
  await page.locator('h1').first().waitFor()
  const { profile } = await cdp.send('Profiler.stop')
  const marks = await page.evaluate(() => globalThis.__marks)
  for (const [type, name, at, duration] of marks)
    console.log(
      `${String(Math.round(at)).padStart(6)} ms  ${type} ${name}${type === 'longtask' ? ` ${Math.round(duration)} ms` : ''}`,
    )
  console.log('\nrequests finished (ms since navigation started, approximately):')
  for (const [at, type, what] of events) console.log(`${String(at).padStart(6)} ${type.padEnd(10)} ${what}`)
  if (process.env.BENCH_PROFILE_OUT) await writeFile(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile))
  // Self time by script and by function, from the samples.
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map()
  const bySource = new Map()
  const deltas = profile.timeDeltas
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id)
    const ms = (deltas[i + 1] ?? 0) / 1000
    const file = callFrame.url.replace(/^https?:\/\/[^/]+/, '') || `(${callFrame.functionName || 'program'})`
    const fn = `${callFrame.functionName || '(anonymous)'} ${file}:${callFrame.lineNumber}`
    self.set(fn, (self.get(fn) ?? 0) + ms)
    bySource.set(file, (bySource.get(file) ?? 0) + ms)
  })
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${v.toFixed(0).padStart(6)} ms  ${k}`)
  console.log('\nself time by script (CPU slowed 4×):')
  console.log(top(bySource, 15).join('\n'))
  console.log('\nself time by function:')
  console.log(top(self, 30).join('\n'))
} finally {
  await browser.close()
  await app.stop()
}

import { chromium } from 'playwright-core'
import { startApp } from './lib.mjs'
import { seed, signIn } from './web-seed.mjs'
const screen = process.argv[2] ?? 'item'
const app = await startApp()
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
try {
  const { session, screens } = await seed(app)
  const url = screens.find(([n]) => n === screen)[1]
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-GB', viewport: { width: 412, height: 823 } })
  await signIn(context, app.base, session)
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading', 'blink', 'v8'] })
  await page.goto(`${app.base}${url}`, { waitUntil: 'networkidle' })
  await page.waitForTimeout(2000)
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString())
  const threads = new Set(traceEvents.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`))
  const main = traceEvents.filter((e) => threads.has(`${e.pid}:${e.tid}`) && e.ph === 'X')
  // self time by event name: children subtracted (events nested by time)
  main.sort((a, b) => a.ts - b.ts || b.dur - a.dur)
  const self = new Map()
  const stack = []
  for (const e of main) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop()
    const parent = stack.at(-1)
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur)
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur)
    stack.push(e)
  }
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(Math.round(v / 1000)).padStart(6), k)
} finally { await browser.close(); await app.stop() }

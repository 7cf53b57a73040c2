// Web vitals benchmark: Lighthouse (mobile preset, Debian Chromium) over the public pages and the gzip
// size of each page's initial JavaScript, written to bench/README.md. The baseline, measured in the
// same run, is a bare static page served by a bare Node server: ratios are ours / baseline.
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'

const root = fileURLToPath(new URL('..', import.meta.url))
/** Lighthouse runs per page; the run with the median performance score is reported (the machine is noisy). */
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const PAGES = ['/', '/about', '/privacy', '/terms', '/login', '/register', '/contact', '/forgot-password']
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const JS_BUDGET_KB = 90
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

const BASELINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title>
<meta name="description" content="A bare static page, the baseline of this benchmark."></head>
<body><main><h1>Baseline</h1><p>A bare static page.</p></main></body></html>`

function startBaseline() {
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BASELINE_HTML)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

function startApp(dataDir, port) {
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // Lighthouse loads every page several times; past a few pages the rate limiter answered 429.
      RATE_LIMITS: 'off',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return child
}

async function waitForHealth(base) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('the app did not start')
}

/** The scripts a page loads before it is interactive: module entries and their modulepreloads. */
async function initialJsGzipBytes(base, pagePath) {
  const html = await (await fetch(`${base}${pagePath}`, { headers: { 'accept-language': 'en' } })).text()
  const urls = new Set()
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g)) urls.add(m[1])
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)) urls.add(m[1])
  for (const m of html.matchAll(/<script(?![^>]*type="module")[^>]+src="([^"]+)"/g)) urls.add(m[1])
  let bytes = 0
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer())
    bytes += gzipSync(body, { level: 9 }).length
  }
  return { bytes, files: urls.size }
}

/** One Lighthouse run; a run that failed as a whole (e.g. NO_NAVSTART on a busy machine) is repeated. */
async function runLighthouse(chrome, url, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    })
    const error = result.lhr.runtimeError?.code
    if (!error || attempt >= attempts) return result.lhr
    console.log(`${url}: Lighthouse failed (${error}), running it again`)
  }
}

async function medianAudit(chrome, url) {
  const runs = []
  for (let i = 0; i < RUNS; i++) runs.push(await audit(chrome, url))
  runs.sort((a, b) => a.scores.performance - b.scores.performance || b.tbt - a.tbt)
  return runs[Math.floor((runs.length - 1) / 2)]
}

async function audit(chrome, url) {
  const lhr = await runLighthouse(chrome, url)
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  )
  const failing = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null &&
        a.score < 1 &&
        a.scoreDisplayMode !== 'informative' &&
        a.scoreDisplayMode !== 'notApplicable' &&
        a.scoreDisplayMode !== 'manual',
    )
    .map((a) => a.id)
  return {
    scores,
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
    tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
    failing,
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-web-bench-'))
const port = 20_000 + Math.floor(Math.random() * 20_000)
const app = startApp(dataDir, port)
const baseline = await startBaseline()
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: CHROME_FLAGS,
})
try {
  const base = `http://127.0.0.1:${port}`
  await waitForHealth(base)
  const baselineRun = await audit(chrome, `http://127.0.0.1:${baseline.address().port}/`)
  const rows = []
  for (const page of PAGES) {
    const run = await medianAudit(chrome, `${base}${page}`)
    const js = await initialJsGzipBytes(base, page)
    rows.push({ page, ...run, js })
    console.log(page, run.scores, `${(js.bytes / 1024).toFixed(1)} KB JS`, run.failing.join(', '))
  }
  const ratio = (ours, theirs) => (theirs ? (ours / theirs).toFixed(2) : 'n/a')
  const lines = [
    '<!-- web:start -->',
    '## Web vitals (`npm run bench:web`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} with Lighthouse (mobile preset, simulated throttling) in Debian`,
    `Chromium on ${os.cpus().length} cores, against the built app served by \`dist/server.js\` (English pages, first visits),`,
    `the median of ${RUNS} runs per page by performance score: total blocking time varies with the machine's load.`,
    'Baseline: a bare static HTML page from a bare Node server in the same run; score ratios are ours / baseline.',
    `Initial JS: gzip -9 of every script the page loads up front (entries and modulepreloads); budget for \`/\`: ${JS_BUDGET_KB} KB.`,
    'The form pages load the app (about 155 KB gzip, plus the page chunks; not counted here) after the first paint, in steps; on a first visit their HTML brings the cookie consent dialog (docs/decisions/0007, 0010).',
    '',
    '| page | performance | accessibility | best practices | SEO | score ratio (min) | LCP ms | TBT ms | initial JS gzip |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| baseline | ${CATEGORIES.map((c) => baselineRun.scores[c]).join(' | ')} | 1.00 | ${Math.round(baselineRun.lcp)} | ${Math.round(baselineRun.tbt)} | 0 KB |`,
    ...rows.map(
      (r) =>
        `| \`${r.page}\` | ${CATEGORIES.map((c) => r.scores[c]).join(' | ')} | ${Math.min(
          ...CATEGORIES.map((c) => Number(ratio(r.scores[c], baselineRun.scores[c]))),
        ).toFixed(
          2,
        )} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} | ${(r.js.bytes / 1024).toFixed(1)} KB (${r.js.files} files) |`,
    ),
    '',
    ...rows
      .filter((r) => r.failing.length)
      .map((r) => `- \`${r.page}\` audits below full marks: ${r.failing.join(', ')}`),
    '<!-- web:end -->',
  ]
  const section = lines.join('\n')
  const readmePath = path.join(root, 'bench', 'README.md')
  const previous = await readFile(readmePath, 'utf8').catch(() => '# Benchmarks\n\n')
  const next = previous.includes('<!-- web:start -->')
    ? previous.replace(/<!-- web:start -->[\s\S]*<!-- web:end -->/, section)
    : `${previous.trimEnd()}\n\n${section}\n`
  await writeFile(readmePath, next)
  console.log(section)
} finally {
  await chrome.kill()
  baseline.close()
  app.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 500))
  await rm(dataDir, { recursive: true, force: true })
}

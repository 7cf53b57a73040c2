// What a client-rendered screen can score (issue 27, docs/decisions/0055): Lighthouse mobile, as in
// bench/web.mjs, on a page that renders from an empty <div id="root"> and fetches its content from an
// API, built two ways: React alone, and React with the libraries every signed-in screen of ours loads
// (i18next, TanStack Query, react-router, zod/mini, socket.io's client). One file each, brotli 11.
// `npm run bench:web:floor`. Prints, per variant and run: performance, FCP, LCP, TBT (ms), brotli KB.
import { createServer } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants } from 'node:zlib'
import * as chromeLauncher from 'chrome-launcher'
import { build } from 'esbuild'
import lighthouse from 'lighthouse'

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web')
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

const page = `
const h = React.createElement
function Content({ data }) {
  return h('main', { style: { fontFamily: 'sans-serif', padding: 16 } },
    h('h1', null, TITLE),
    data ? h('p', { style: { maxWidth: '60ch' } }, data.text) : h('p', null, 'Loading…'),
    data ? h('ul', null, data.items.map((item) => h('li', { key: item }, item))) : null)
}`

const VARIANTS = {
  react: `import * as React from 'react'
import { createRoot } from 'react-dom/client'
const TITLE = 'Dashboard'
${page}
function Page() {
  const [data, setData] = React.useState(null)
  React.useEffect(() => { fetch('/api/data').then((r) => r.json()).then(setData) }, [])
  return h(Content, { data })
}
createRoot(document.getElementById('root')).render(h(Page))`,
  stack: `import * as React from 'react'
import { createRoot } from 'react-dom/client'
import i18n from 'i18next'
import { initReactI18next, useTranslation } from 'react-i18next'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { BrowserRouter, useRoutes } from 'react-router'
import * as z from 'zod/mini'
import { io } from 'socket.io-client'
const Answer = z.object({ text: z.string(), items: z.array(z.string()) })
const client = new QueryClient()
let TITLE = ''
${page}
function Page() {
  TITLE = useTranslation().t('title')
  const query = useQuery({ queryKey: ['data'], queryFn: () => fetch('/api/data').then((r) => r.json()).then((d) => Answer.parse(d)) })
  React.useEffect(() => { const socket = io({ autoConnect: false }); return () => void socket.close() }, [])
  return h(Content, { data: query.data })
}
function Routes() { return useRoutes([{ path: '*', element: h(Page) }]) }
void i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: { title: 'Dashboard' } } } }).then(() =>
  createRoot(document.getElementById('root')).render(
    h(QueryClientProvider, { client }, h(BrowserRouter, null, h(Routes)))))`,
}

const HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title>
<meta name="description" content="What a client-rendered screen can score."></head>
<body><div id="root"></div><script type="module" src="/app.js"></script></body></html>`
const DATA = JSON.stringify({
  text: 'Ida handed the ladder to Ben; Ben asked to borrow the drill until Saturday.',
  items: ['Ladder', 'Drill', 'Tent', 'Projector'],
})

async function bundle(source) {
  const result = await build({
    stdin: { contents: source, resolveDir: WEB, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  })
  return brotliCompressSync(result.outputFiles[0].contents, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
  })
}

function serve(script) {
  const server = createServer((req, res) => {
    if (req.url === '/app.js')
      return res.writeHead(200, { 'content-type': 'text/javascript', 'content-encoding': 'br' }).end(script)
    if (req.url === '/api/data')
      return setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(DATA), 20)
    if (req.url === '/robots.txt')
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
})
try {
  for (const [name, source] of Object.entries(VARIANTS)) {
    const script = await bundle(source)
    const server = await serve(script)
    for (let run = 0; run < RUNS; run++) {
      const { lhr } = await lighthouse(`http://127.0.0.1:${server.address().port}/`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      })
      const ms = (audit) => Math.round(lhr.audits[audit].numericValue)
      console.log(
        `${name.padEnd(6)} performance ${Math.round(lhr.categories.performance.score * 100)}  FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  TBT ${ms('total-blocking-time')}  ${(script.length / 1024).toFixed(1)} KB brotli`,
      )
    }
    server.close()
  }
} finally {
  await chrome.kill()
}

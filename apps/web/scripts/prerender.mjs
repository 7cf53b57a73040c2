// Runs after `vite build`: renders the public pages (entry-server.tsx) in English and German into
// dist/prerender/<lang>/<page>.html, which the server sends in the visitor's language. The pages without
// forms ship without React: a small script (src/static-page-entry.ts) instead of the app. The pages with
// forms load src/hydrated-page-entry.ts, which starts the cookie consent and then the app; they also carry
// the first-visit consent dialog (src/lib/consent-prerender.ts), which the server keeps only for visitors
// without a consent cookie. Every page gets its CSS inline, so nothing blocks the first paint.
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import Beasties from 'beasties'
import { Window } from 'happy-dom'
import { build } from 'vite'
import { PREACT_ALIASES, PREACT_JSX } from '../build/preact.mjs'

const webRoot = fileURLToPath(new URL('..', import.meta.url))
const dist = path.join(webRoot, 'dist')
const ssrOut = path.join(webRoot, 'node_modules/.prerender')
const LANGUAGES = ['en', 'de']
/** Pages with nothing for React to do: static HTML plus the small script. */
const STATIC_PAGES = new Set(['/', '/about', '/privacy', '/terms'])
/** What the prerender shows as contact address; the server puts CONTACT_EMAIL in its place on static pages. */
const DEFAULT_CONTACT_EMAIL = 'hello@circles.example'
const CONTACT_EMAIL_PLACEHOLDER = '__CIRCLES_CONTACT_EMAIL__'
/** The class vanilla-cookieconsent puts on <html> while its dialog shows. */
const CONSENT_SHOWN_CLASS = 'show--consent'
const DESCRIPTIONS = {
  en: 'Circles helps friends, families and teams lend and hand over physical things within trusted groups, with every handover confirmed and recorded in a tamper-evident ledger.',
  de: 'Mit Circles verleihen und übergeben Freunde, Familien und Teams Dinge in Gruppen, denen sie vertrauen – jede Übergabe bestätigt und fälschungssicher festgehalten.',
}

const shared = {
  root: webRoot,
  configFile: false,
  logLevel: 'warn',
  oxc: { jsx: PREACT_JSX },
  resolve: { alias: [...PREACT_ALIASES, { find: '@', replacement: path.join(webRoot, 'src') }] },
}

// 1. The server renderer, bundled for Node.
await build({
  ...shared,
  build: { ssr: 'src/entry-server.tsx', outDir: ssrOut, emptyOutDir: true, minify: false },
  // Everything bundled: the React libraries must meet Preact through the aliases (an external one would
  // load React itself in Node), and vanilla-cookieconsent's `main` is a UMD file whose exports Node
  // cannot name.
  ssr: { noExternal: true },
})

// 2. The static pages' own script, hashed beside the app's assets.
await build({
  ...shared,
  build: {
    outDir: dist,
    emptyOutDir: false,
    copyPublicDir: false,
    manifest: '.vite/static-page-manifest.json',
    rolldownOptions: { input: { 'static-page': path.join(webRoot, 'src/static-page-entry.ts') } },
  },
})
const manifest = JSON.parse(await readFile(path.join(dist, '.vite/static-page-manifest.json'), 'utf8'))
const staticEntry = manifest['src/static-page-entry.ts']
const staticTags = `<script type="module" crossorigin src="/${staticEntry.file}"></script>`

// The pages that hydrate load the app through their own small entry, which starts the cookie consent
// first (src/hydrated-page-entry.ts; one build with the app, see vite.config.ts).
const appManifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8'))
function staticImports(key, seen = new Set()) {
  for (const dependency of appManifest[key].imports ?? []) {
    if (seen.has(dependency)) continue
    seen.add(dependency)
    staticImports(dependency, seen)
  }
  return seen
}
/** An entry's script and the modulepreloads of what it imports. */
function entryTags(key) {
  return [
    `<script type="module" crossorigin src="/${appManifest[key].file}"></script>`,
    ...[...staticImports(key)].map(
      (dependency) => `<link rel="modulepreload" crossorigin href="/${appManifest[dependency].file}">`,
    ),
  ].join('\n    ')
}
const hydratedTags = entryTags('src/hydrated-page-entry.ts')

// 3. Every public page in every language.
const { render, renderConsentDialog, routeSources, INITIAL_NAMESPACES, PRERENDERED_PATHS, SCREEN_FRAMES } =
  await import(pathToFileURL(path.join(ssrOut, 'entry-server.js')).href)
const indexHtml = await readFile(path.join(dist, 'index.html'), 'utf8')

// The stylesheet goes inline (one round trip less before the first paint). The Inter font is preloaded
// first thing in <head> on every page (issue 23, docs/decisions/0030 and 0033): otherwise it is only
// requested once the page is laid out, and the first paint is drawn in the metric-matched fallback.
const cssHref = indexHtml.match(/<link rel="stylesheet"[^>]*href="(\/assets\/index-[^"]+\.css)"[^>]*>/)?.[1]
if (!cssHref) throw new Error('no stylesheet in dist/index.html')
const css = await readFile(path.join(dist, cssHref), 'utf8')
const fontHref = css.match(/\/assets\/inter-latin-wght-normal-[^)"']+\.woff2/)?.[0]
if (!fontHref) throw new Error('no Inter font in the stylesheet')
const fontPreload = `<link rel="preload" href="${fontHref}" as="font" type="font/woff2" crossorigin>`
// Pages that are not prerendered (the signed-in screens) get no preload: they paint nothing before their
// scripts, and on a slow phone link the font's 48 KB held up the screen's code (issue 27, 0056). Their
// text paints in the metric-matched fallback and Inter swaps in without moving anything.
if (!indexHtml.includes('<meta charset="UTF-8" />')) throw new Error('no charset in dist/index.html')
/**
 * What every prerendered page starts from: index.html with its CSS inline and without its scripts (each
 * kind of page brings its own, and loads the app's later: src/load-app.ts).
 */
const baseTemplate = indexHtml
  .replace(/\s*<link rel="stylesheet"[^>]*href="\/assets\/index-[^"]+\.css"[^>]*>/, '')
  .replace(/\s*<script type="module"[^>]*src="\/assets\/index-[^"]+\.js"[^>]*><\/script>/, '')
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace('</head>', `    <style>${css}</style>\n  </head>`)
const publicTemplate = baseTemplate.replace(/(<meta charset="UTF-8" \/>)/, `$1\n    ${fontPreload}`)

/** `tags` at the end of the page's <head>. */
const inHead = (html, tags) => html.replace('</head>', `    ${tags}\n  </head>`)

/**
 * The scripts index.html loads up front, its entry first: the pages that arrive as HTML load them after
 * their first paint (src/load-app.ts), from this meta tag.
 */
const appScripts = [
  ...indexHtml.matchAll(/<(?:script type="module"|link rel="modulepreload")[^>]*(?:src|href)="([^"]+)"/g),
].map((match) => match[1])
if (!/\/assets\/index-[^/]+\.js$/.test(appScripts[0] ?? ''))
  throw new Error('no app entry in dist/index.html')
const appScriptsMeta = `<meta name="circles-app-scripts" content="${appScripts.join(' ')}">`

/**
 * What each route's page loads beyond index.html's scripts (docs/decisions/0067): its chunk with what that
 * imports, and its strings in each language. The server lists them as modulepreloads in the index.html it
 * sends for a path of that route (apps/server/src/lib/route-preloads.ts), so a screen's own code and
 * strings load beside the app's scripts instead of after them.
 */
function routePreloads() {
  const inIndex = new Set(appScripts)
  const file = (key) => {
    if (!appManifest[key]) throw new Error(`no ${key} in the build manifest`)
    return `/${appManifest[key].file}`
  }
  return routeSources().map(({ path: route, module, namespaces }) => {
    const code = [module, ...staticImports(module)].map(file)
    const scripts = Object.fromEntries(
      LANGUAGES.map((language) => {
        const strings = [...new Set([...INITIAL_NAMESPACES, ...namespaces])].map((namespace) =>
          file(`src/locales/${language}/${namespace}.json`),
        )
        return [language, [...new Set([...code, ...strings])].filter((script) => !inIndex.has(script))]
      }),
    )
    return { path: route, scripts }
  })
}
const routeScripts = routePreloads()

/** The scripts of the page at `route` (a prerendered page or frame), which src/load-app.ts preloads too. */
function pageScriptsMeta(route, language) {
  const scripts = routeScripts.find((preload) => preload.path === route)?.scripts[language]
  if (!scripts) throw new Error(`no route preloads for ${route}`)
  return `<meta name="circles-page-scripts" content="${scripts.join(' ')}">`
}

/**
 * A signed-in screen's frame (docs/decisions/0065): the page's CSS inline, no font preload (as
 * index.html, docs/decisions/0056), and instead of the app's scripts the frame's entry
 * (src/screen-frame-entry.ts), which loads the app after the first paint.
 */
const frameEntryTags = entryTags('src/screen-frame-entry.ts')

/**
 * Until the app draws over a frame its buttons can do nothing: they come disabled (the app's render
 * takes the attribute away, src/app/main.tsx), drawn as they will be but with a waiting cursor. So do the
 * fields of a screen rendered with its data (apps/server/src/lib/screen-pages.ts), marked `data-inert`
 * until the app has hydrated the part they are in.
 */
const FRAME_CONTROLS_CSS =
  '#root[data-frame] :is(button,input,select,textarea):disabled,[data-inert]:disabled{opacity:1;cursor:progress}' +
  '#root[data-frame] :is(input,select,textarea):disabled,:is(input,select,textarea)[data-inert]:disabled' +
  '{background-color:var(--color-surface)}'

function framePage({ route, html, title, language }) {
  return screenPage({
    html,
    title: escapeHtml(title),
    language,
    pageScripts: pageScriptsMeta(route, language),
  })
}

function screenPage({ html, title, language, pageScripts }) {
  const head = [frameEntryTags, appScriptsMeta, pageScripts, `<style>${FRAME_CONTROLS_CSS}</style>`]
  return inHead(baseTemplate, head.join('\n    '))
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(
      '<div id="root"></div>',
      `<div id="root" data-frame="">${html.replaceAll('<button ', '<button disabled ')}</div>`,
    )
}

/**
 * The page of a signed-in screen that the server renders on request with its data (docs/decisions/0068,
 * apps/server/src/lib/screen-pages.ts): a frame's page, with places for the screen, its title, its
 * scripts and its data, which the server fills in (HTML-escaped where needed).
 */
const SCREEN_SLOTS = {
  title: '__CIRCLES_TITLE__',
  pageScripts: '__CIRCLES_PAGE_SCRIPTS__',
  html: '<!--circles-screen-->',
  data: '<!--circles-screen-data-->',
}
function screenTemplate(language) {
  const page = screenPage({
    html: SCREEN_SLOTS.html,
    title: SCREEN_SLOTS.title,
    language,
    pageScripts: `<meta name="circles-page-scripts" content="${SCREEN_SLOTS.pageScripts}">`,
  })
  return page.replace('</body>', `  ${SCREEN_SLOTS.data}\n  </body>`)
}

function escapeHtml(value) {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function page({ route, html, title, language, isStatic }) {
  // Either no React (static pages) or React after the consent dialog.
  const scripts = isStatic
    ? staticTags
    : [hydratedTags, appScriptsMeta, pageScriptsMeta(route, language)].join('\n    ')
  const out = inHead(publicTemplate, scripts)
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(/(<meta\s+name="description"\s+content=")[^"]*(")/, `$1${escapeHtml(DESCRIPTIONS[language])}$2`)
    .replace('<div id="root"></div>', `<div id="root">${html}</div>`)
  return isStatic ? out.replaceAll(DEFAULT_CONTACT_EMAIL, CONTACT_EMAIL_PLACEHOLDER) : out
}

/**
 * The consent dialog in each language, rendered by vanilla-cookieconsent itself in a happy-dom window.
 * Runs after the pages are rendered: React must not find a DOM while it renders them.
 */
async function renderConsentDialogs() {
  const window = new Window({ url: 'http://localhost/' })
  const globals = {
    window,
    document: window.document,
    navigator: window.navigator,
    location: window.location,
    // The library's events must be happy-dom's (Node's own are rejected by its dispatchEvent).
    Event: window.Event,
    CustomEvent: window.CustomEvent,
    EventTarget: window.EventTarget,
    dispatchEvent: window.dispatchEvent.bind(window),
    requestAnimationFrame: (callback) => setTimeout(callback, 0),
  }
  const saved = Object.fromEntries(
    Object.keys(globals).map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]),
  )
  for (const [name, value] of Object.entries(globals)) {
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true })
  }
  try {
    const dialogs = {}
    for (const language of LANGUAGES) dialogs[language] = await renderConsentDialog(language)
    return dialogs
  } finally {
    for (const [name, descriptor] of Object.entries(saved)) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor)
      else delete globalThis[name]
    }
    await window.happyDOM.close()
  }
}

const consentCssFile = appManifest['src/lib/consent.ts']?.css?.[0]
if (!consentCssFile) throw new Error('no stylesheet for src/lib/consent.ts in the build manifest')
const consentCss = await readFile(path.join(dist, consentCssFile), 'utf8')

/**
 * The rules of the consent stylesheet that the dialog uses (beasties matches the selectors against it):
 * about a third. The whole sheet, with the preferences, arrives with the consent chunk; it declares no
 * fonts, so nothing on the page changes then. e2e/tests/consent-in-page.spec.ts checks that nothing is missed.
 */
async function dialogCss(dialog) {
  const beasties = new Beasties({
    reduceInlineStyles: true,
    keyframes: 'all',
    compress: true,
    logLevel: 'warn',
  })
  const html = `<html class="${CONSENT_SHOWN_CLASS}"><head><style>${consentCss}</style></head><body>${dialog}</body></html>`
  const pruned = await beasties.process(html)
  const css = pruned.match(/<style>([\s\S]*)<\/style>/)?.[1]
  if (!css) throw new Error('beasties left no CSS for the consent dialog')
  return css
}

/**
 * A hydrating page as a first visit gets it: the consent dialog shown from the first paint, with its CSS
 * inline (hydrated-page-entry.ts then lets the library take the dialog over, lib/consent.ts).
 */
function firstVisitPage(html, { dialog, css }) {
  return (
    html
      .replace(/<html lang="([^"]*)"/, `<html lang="$1" class="${CONSENT_SHOWN_CLASS}"`)
      .replace('</head>', `    <style>${css}</style>\n  </head>`)
      // First in the body, so that it is parsed before the first paint, not after the page.
      .replace(/<body([^>]*)>/, `<body$1>\n    ${dialog}`)
  )
}

const pages = []
for (const language of LANGUAGES) {
  for (const route of PRERENDERED_PATHS) {
    const { html, title } = await render(route, language)
    const isStatic = STATIC_PAGES.has(route)
    pages.push({
      route,
      language,
      isStatic,
      html: page({ route, html, title: title || 'Circles', language, isStatic }),
    })
  }
}
const frames = []
for (const language of LANGUAGES) {
  for (const route of SCREEN_FRAMES) {
    const { html, title } = await render(route, language, { frame: true })
    frames.push({ route, language, html: framePage({ route, html, title: title || 'Circles', language }) })
  }
}
const consentDialogs = {}
for (const [language, dialog] of Object.entries(await renderConsentDialogs())) {
  consentDialogs[language] = { dialog, css: await dialogCss(dialog) }
}

// prerender/<lang>/<page>.html for every visit; prerender/<lang>/first-visit/<page>.html for requests
// without a consent cookie, where the page has such a variant (apps/server/src/plugins/spa.ts).
await rm(path.join(dist, 'prerender'), { recursive: true, force: true })
for (const language of LANGUAGES) {
  await mkdir(path.join(dist, 'prerender', language, 'first-visit'), { recursive: true })
}
for (const { route, language, isStatic, html } of pages) {
  const file = route === '/' ? 'index.html' : `${route.slice(1)}.html`
  await writeFile(path.join(dist, 'prerender', language, file), html)
  if (isStatic) continue
  const firstVisit = firstVisitPage(html, consentDialogs[language])
  await writeFile(path.join(dist, 'prerender', language, 'first-visit', file), firstVisit)
}
// prerender/<lang>/screens/<screen>.html: the server sends them as it sends the pages above.
for (const { route, language, html } of frames) {
  await mkdir(path.join(dist, 'prerender', language, 'screens'), { recursive: true })
  await writeFile(path.join(dist, 'prerender', language, 'screens', `${route.slice(1)}.html`), html)
}
await writeFile(path.join(dist, 'prerender', 'route-preloads.json'), JSON.stringify(routeScripts))
// prerender/screen-template/<lang>.html and the renderer itself (prerender/ssr/): the server renders the
// signed-in screens with their data on request (docs/decisions/0068).
await mkdir(path.join(dist, 'prerender', 'screen-template'))
for (const language of LANGUAGES) {
  await writeFile(
    path.join(dist, 'prerender', 'screen-template', `${language}.html`),
    screenTemplate(language),
  )
}
await cp(ssrOut, path.join(dist, 'prerender', 'ssr'), {
  recursive: true,
  filter: (source) => !path.extname(source) || source.endsWith('.js'),
})
console.log(
  `prerendered ${PRERENDERED_PATHS.length} pages and ${SCREEN_FRAMES.length} screen frames in ${LANGUAGES.join(', ')}`,
)

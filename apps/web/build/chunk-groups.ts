/**
 * Which chunk each of our modules goes to (issue 27, docs/decisions/0056).
 *
 * Left alone, the bundler gives every set of pages that shares a module a chunk of its own: a signed-in
 * screen loaded 40–70 files, most under 2 KB, each a round trip on a phone's HTTP/1.1 connections (six
 * at a time). Here the app's shell and our code that several pages share go into one `app` chunk; a
 * page's own code stays in the page's chunk; and code that brings a library of its own (forms, QR codes,
 * ledger verification, passkeys) stays out, so no screen loads a library it does not use. The prerendered
 * public pages' entry keeps its few small modules to itself: those pages do not load the app first.
 */
import type { ModuleInfo } from 'rolldown'

type Info = (id: string) => ModuleInfo | null

/** The modules a first load starts from: the app's entry and every page. */
const ROOT = /[\\/]src[\\/](app[\\/]main\.tsx|(features[\\/][^\\/]+|app)[\\/]routes[\\/][^\\/]+-page\.tsx)$/
/** The entries of the pages that arrive as HTML (prerendered public pages, signed-in screens' frames). */
const PUBLIC_ENTRY = /[\\/]src[\\/](hydrated-page|screen-frame)-entry\.ts$/
/** Our code, the shared contract, and the icons. */
const OURS =
  /[\\/](apps[\\/]web[\\/]src|packages[\\/]shared[\\/]src)[\\/]|[\\/]node_modules[\\/]lucide-react[\\/]/
/** Libraries every signed-in screen loads anyway (their own chunks, vite.config.ts). */
const EVERYWHERE =
  /[\\/]node_modules[\\/](preact|i18next|react-i18next|react-router|zod|@tanstack[\\/][^\\/]+|idb-keyval)[\\/]/
/** The shared package's modules. */
const CONTRACT = /[\\/]packages[\\/]shared[\\/]src[\\/]/
/** How many signed-in pages must share a module for it to go into `app`. */
const SHARED_BY = 3
/**
 * Pages for visitors (prerendered, or the sign-in forms): what only they share stays out of `app`, which
 * every signed-in screen loads first (a legal page's <Trans> brought react-i18next's HTML parser there).
 */
const SIGNED_OUT_PAGE = /[\\/]src[\\/]features[\\/](landing|pages|contact|auth)[\\/]routes[\\/]/

export function appChunk(): (id: string, ctx: { getModuleInfo: Info }) => string | null {
  const roots = new Map<string, Set<string>>()
  const heavy = new Map<string, boolean>()
  let info: Info = () => null

  /** The roots that reach `id` through static imports (a dynamic import starts a part loaded later). */
  function rootsReaching(id: string): Set<string> {
    const known = roots.get(id)
    if (known) return known
    const found = new Set<string>()
    roots.set(id, found)
    if (ROOT.test(id) || PUBLIC_ENTRY.test(id)) found.add(id)
    for (const importer of info(id)?.importers ?? [])
      for (const root of rootsReaching(importer)) found.add(root)
    return found
  }

  /** Whether `id` statically brings a library that not every screen loads. */
  function bringsLibrary(id: string): boolean {
    const known = heavy.get(id)
    if (known !== undefined) return known
    heavy.set(id, false)
    const result = OURS.test(id)
      ? (info(id)?.importedIds ?? []).some(bringsLibrary)
      : !EVERYWHERE.test(id) && !id.startsWith('\0')
    heavy.set(id, result)
    return result
  }

  return (id, ctx) => {
    info = (module) => ctx.getModuleInfo(module)
    if (!OURS.test(id) || ROOT.test(id)) return null
    const reaching = [...rootsReaching(id)]
    if (reaching.some((root) => PUBLIC_ENTRY.test(root))) return null
    const shell = reaching.some((root) => root.endsWith('main.tsx'))
    const signedInPages = reaching.filter((root) => !SIGNED_OUT_PAGE.test(root))
    if (!shell && signedInPages.length < SHARED_BY) return null
    if (bringsLibrary(id)) return null
    // The contract (its schemas are built when the module runs) in a chunk of its own: the pages that load
    // the app in steps (load-app.ts) evaluate it in a task of its own, not in the app's.
    return CONTRACT.test(id) ? 'contract' : 'app'
  }
}

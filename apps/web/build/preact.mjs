/**
 * The app renders with Preact (issue 27, docs/decisions/0061): React's API through `preact/compat`, so
 * our code, its types (@types/react) and the React libraries we use stay as they are, at about a fifth
 * of react-dom's bytes. The build, the prerender (scripts/prerender.mjs, plain Node: hence .mjs) and the
 * web tests resolve React the same way: one renderer everywhere, no second path to test.
 */

/** @type {import('vite').Alias[]} */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/server$/, replacement: 'preact/compat/server' },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  // react-i18next's shim for React 17 and older: Preact has the hook itself.
  { find: /^use-sync-external-store\/shim$/, replacement: 'preact/compat' },
]

/** JSX compiled for Preact's runtime (the automatic runtime, as React's). */
export const PREACT_JSX = /** @type {const} */ ({ runtime: 'automatic', importSource: 'preact' })

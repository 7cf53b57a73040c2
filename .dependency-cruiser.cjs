// The one-way dependencies of the code (docs/decisions/0046), checked by `npm run lint:deps`, which is
// part of `npm run check`. dependency-cruiser reads the TypeScript before compilation
// (tsPreCompilationDeps), so type-only imports and dynamic import() count like any other import.

/**
 * The server's modules, lowest layer first. A module may import lib/, db/, context and config, and the
 * modules of the layers below its own: never a module of its own layer or above. A new module gets a
 * place here (rule server-module-has-a-layer).
 */
const serverLayers = [
  // membership answers "is this a member" for every module (the ledger's reads too) without circles.
  ['auth', 'health', 'contact', 'membership'],
  // Condition photos (issue 28): the ledger serves and verifies what its blocks commit to.
  ['condition'],
  // The ledger sits beneath every module that appends to it.
  // push (issue 27): devices and their subscriptions; the queue itself is lib/push, which notices write.
  ['users', 'activities', 'ledger', 'push'],
  ['webauthn', 'avatars', 'items'],
  ['handovers'],
  // Loans confirm LOAN and RETURN handovers (the handovers' lending hooks); asks to borrow make LOAN
  // requests; circles recall loans and close asks on a departure (issue 26).
  ['loans', 'borrow-requests', 'loan-reminders', 'calendar'],
  ['circles'],
  ['account-deletion', 'export'],
]

const SERVER = '^apps/server/src'
const MODULES = `${SERVER}/modules`
const WEB = '^apps/web/src'
const any = (names) => `(${names.join('|')})`

const layering = serverLayers.flatMap((layer, index) => {
  const notBelow = serverLayers.slice(index).flat()
  return layer.map((name) => ({
    name: `server-layers-${name}`,
    comment: `The ${name} module imports only modules of lower layers (${
      serverLayers.slice(0, index).flat().join(', ') || 'none'
    }); see .dependency-cruiser.cjs serverLayers and docs/decisions/0046.`,
    severity: 'error',
    from: { path: `${MODULES}/${name}/` },
    to: { path: `${MODULES}/${any(notBelow.filter((other) => other !== name))}/` },
  }))
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layering,
    {
      name: 'server-module-has-a-layer',
      comment: 'Every server module has a layer in serverLayers of .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: `${MODULES}/`, pathNot: `${MODULES}/${any(serverLayers.flat())}/` },
      to: {},
    },
    {
      name: 'server-no-other-repository',
      comment: "A module calls another module's service, never its repository (its tables are its own).",
      severity: 'error',
      from: { path: `${MODULES}/([^/]+)/` },
      to: { path: `${MODULES}/[^/]+/[^/]+[.]repository[.]ts$`, pathNot: `${MODULES}/$1/` },
    },
    {
      name: 'server-base-below-modules',
      comment:
        "lib/, db/ and config are beneath every module. context.ts may name the auth module's token type: auth is the lowest layer.",
      severity: 'error',
      from: { path: `${SERVER}/(lib|db|backup)/|${SERVER}/(config|context)[.]ts$` },
      to: { path: `${MODULES}/`, pathNot: `${MODULES}/auth/session-token[.]ts$` },
    },
    {
      name: 'server-modules-below-app',
      comment: 'Modules never import the app, the entry point or the plugins that compose them.',
      severity: 'error',
      from: { path: `${MODULES}/` },
      to: { path: `${SERVER}/(app|server)[.]ts$|${SERVER}/plugins/` },
    },
    {
      name: 'web-feature-not-another-feature',
      comment:
        'A feature imports its own files, lib/ and components/, never another feature (its barrel or internals, static or import()). What two features need goes to lib/ or components/.',
      severity: 'error',
      from: { path: `${WEB}/features/([^/]+)/` },
      to: { path: `${WEB}/features/`, pathNot: `${WEB}/features/$1/` },
    },
    {
      name: 'web-shared-below-features',
      comment:
        'lib/ and components/ are shared by the features: they import neither a feature nor the app layer.',
      severity: 'error',
      from: { path: `${WEB}/(lib|components)/` },
      to: { path: `${WEB}/(features|app)/` },
    },
    {
      name: 'web-features-below-app',
      comment: 'The app layer (router, layouts) imports the features, not the other way round.',
      severity: 'error',
      from: { path: `${WEB}/features/` },
      to: { path: `${WEB}/app/` },
    },
    {
      name: 'apps-apart',
      comment: 'The web app talks to the server over HTTP only; the packages import neither app.',
      severity: 'error',
      from: { path: '^(apps/web|packages)/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'server-not-web',
      severity: 'error',
      from: { path: '^(apps/server|packages)/' },
      to: { path: '^apps/web/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Tests may reach anywhere; the rules are about the shipped code.
    exclude: { path: '[.]test[.]tsx?$|/test/|/testdata/' },
    // The web app's `@/…` imports (apps/web/tsconfig.json "paths"; the server and the packages have
    // none), restated with a baseUrl: without one dependency-cruiser reads paths from the working directory.
    tsConfig: { fileName: `${__dirname}/tsconfig.depcruise.json` },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}

import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { constants as zlib } from 'node:zlib'
import compress from '@fastify/compress'
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { config as zodConfig } from 'zod/mini'
import en from 'zod/v4/locales/en.js'
import type { Config } from './config'
import type { AppContext } from './context'
import type { Database } from './db/client'
import { createEventBus } from './lib/events'
import { type LogStream, loggerOptions } from './lib/logging'
import { type LedgerSigner, ledgerSigner } from './lib/ledger-signer'
import { createUnsubscribeTokens } from './lib/unsubscribe-tokens'
import { createMailFolderTransport, createSmtpTransport, type MailTransport } from './lib/mailer/transport'
import { startOutboxWorker } from './lib/mailer/worker'
import { isLoopbackHost } from './lib/push/public-address'
import { startPushWorker } from './lib/push/worker'
import { type VapidKeys, vapidFromSecret } from './lib/push/vapid'
import { pushRoutes } from './modules/push/push.routes'
import { createPushService } from './modules/push/push.service'
import { createRateLimits, noRateLimits } from './lib/rate-limits'
import { createMetrics, noMetrics } from './lib/metrics'
import { requestIdGenerator } from './lib/request-id'
import { registerMetrics } from './plugins/metrics'
import { authPlugin } from './modules/auth/auth.plugin'
import { circlesRoutes } from './modules/circles/circles.routes'
import { createCirclesService } from './modules/circles/circles.service'
import { webauthnRoutes } from './modules/webauthn/webauthn.routes'
import { createWebauthnService } from './modules/webauthn/webauthn.service'
import { activitiesRoutes } from './modules/activities/activities.routes'
import { createActivitiesService } from './modules/activities/activities.service'
import { createInvitationsService, invitationLookup } from './modules/circles/invitations.service'
import { contactRoutes } from './modules/contact/contact.routes'
import { createContactService } from './modules/contact/contact.service'
import { healthRoutes } from './modules/health/health.routes'
import { createAccountsService } from './modules/users/accounts.service'
import { accountDeletionRoutes } from './modules/account-deletion/account-deletion.routes'
import { createAccountDeletionService } from './modules/account-deletion/account-deletion.service'
import { createPasswordResetService } from './modules/users/password-reset.service'
import { createChangePasswordService } from './modules/users/change-password.service'
import { changePasswordRoutes } from './modules/users/change-password.routes'
import { usersRoutes } from './modules/users/users.routes'
import { createNoticesService } from './modules/users/notices.service'
import { createVerificationService } from './modules/users/verification.service'
import { registerApiCeiling } from './plugins/api-ceiling'
import { registerDocs } from './plugins/docs'
import { frameworkErrors, registerErrorHandler } from './plugins/error-handler'
import { registerRequestIds, registerRequestLog } from './plugins/request-log'
import { createItemsService } from './modules/items/items.service'
import { itemsRoutes } from './modules/items/items.routes'
import { conditionRoutes } from './modules/condition/condition.routes'
import { createConditionService } from './modules/condition/condition.service'
import { handoversRoutes } from './modules/handovers/handovers.routes'
import { createHandoversService } from './modules/handovers/handovers.service'
import { borrowRequestsRoutes } from './modules/borrow-requests/borrow-requests.routes'
import {
  type BorrowRequestsService,
  createBorrowRequestsService,
  registerReturnListener,
} from './modules/borrow-requests/borrow-requests.service'
import { createLoansService } from './modules/loans/loans.service'
import { loansRoutes } from './modules/loans/loans.routes'
import { ledgerLogRoutes, ledgerRoutes } from './modules/ledger/ledger.routes'
import { createLedgerService } from './modules/ledger/ledger.service'
import { startOutsideWitnesses } from './modules/ledger/outside-witness'
import { witnessRoutes } from './modules/ledger/witness.routes'
import { createWitnessService } from './modules/ledger/witness.service'
import { exportRoutes } from './modules/export/export.routes'
import { createExportService } from './modules/export/export.service'
import { createDatabaseStore, createDiskStore } from './lib/storage'
import { avatarsRoutes } from './modules/avatars/avatars.routes'
import { createAvatarsService } from './modules/avatars/avatars.service'
import { createSessionTokens } from './modules/auth/session-token'
import { type LoanReminders, createLoanReminders } from './modules/loan-reminders/loan-reminders.service'
import { calendarRoutes } from './modules/calendar/calendar.routes'
import { createCalendarService } from './modules/calendar/calendar.service'
import { registerSecurity } from './plugins/security'
import { guardBodyPace, serverTimeoutOptions } from './plugins/slow-clients'
import { registerSpa } from './plugins/spa'
import { type Drain, registerDrain } from './lib/shutdown'
import { createEventLog } from './lib/socket-replay'
import { attachSocketServer, fanOutListening, type SocketServer } from './plugins/socket'

/** The built SPA, relative to this file in src/ and in dist/ alike. */
export const defaultWebDir = fileURLToPath(new URL('../../web/dist', import.meta.url))

export interface BuildAppOptions {
  config: Config
  database: Database
  jwtSecret: string
  /** The checkpoint signer; tests leave it out and get a fresh key per app. */
  ledgerKey?: LedgerSigner
  /** Where the built SPA lives; `null` serves the API only. */
  webDir?: string | null
  /** Replaces the transport chosen from SMTP_URL (tests use it to simulate an outage). */
  mailTransport?: MailTransport
  /** Where log lines go instead of stdout (tests capture them to search for secrets). */
  logStream?: LogStream
  /** Told of every route as it is added (tests enumerate the routes, so a new one is covered). */
  onRoute?: (route: RouteOptions) => void
  /**
   * Handed the services that tests drive inside a transaction of their own (the waiting list's
   * `offerNext`, until the loans module's returns call it).
   */
  exposeServices?: (services: { borrowRequests: BorrowRequestsService }) => void
  /** "Now" for the lending rules, the loan reminders and the calendar feed (issue 26); tests pass a test clock. */
  clock?: () => Date
  /** Web Push's VAPID keys (server.ts: VAPID_* or DATA_DIR); tests leave it out and get a fresh pair per app. */
  vapidKeys?: VapidKeys
}

declare module 'fastify' {
  interface FastifyInstance {
    io: SocketServer
    /** Graceful shutdown's first phase: readiness 503, answers close their connection (lib/shutdown.ts). */
    drain: Drain
    /** The loan reminder scanner (issue 26); tests call `scan()` on their clock. */
    loanReminders: LoanReminders
  }
}

const JSON_BODY_LIMIT = 64 * 1024

// The contract is zod/mini (issue 27), which loads no locale: a value no rule of ours names is answered
// in zod's English words (key `invalidInput`), as with classic zod, not a bare "Invalid input".
zodConfig(en())

/** The zod compilers as Fastify's compiler factories (its types expect Ajv's and fast-json-stringify's). */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']

/** Builds the whole app: external plugins, then our plugins, then the modules. Does not listen. */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = opts
  const app = Fastify({
    // Nothing secret or personal at any level: lib/logging.ts, docs/decisions/0023.
    logger: loggerOptions(config.logLevel, opts.logStream),
    // Fastify accepts a hop count at run time; its types only list the other forms.
    trustProxy: config.trustProxy as boolean | string,
    bodyLimit: JSON_BODY_LIMIT,
    ...serverTimeoutOptions(config.timeouts),
    // Fastify's own access log prints raw URLs, and /verify/:token carries a secret: we log route patterns.
    logController: new LogController({ disableRequestLogging: true }),
    // A fresh UUID per request, or a trusted proxy's safe x-request-id (docs/decisions/0042).
    genReqId: requestIdGenerator(config.trustProxy),
    frameworkErrors,
    // While closing, a request on a busy keep-alive connection is still served (with `Connection:
    // close`) instead of Fastify's bare 503: the request was accepted before the signal (lib/shutdown.ts).
    return503OnClosing: false,
    // Every route validates and serializes with zod (set below); naming the compilers here as well keeps
    // Fastify from loading Ajv and fast-json-stringify at construction for nothing (docs/decisions/0045).
    schemaController: { compilersFactory: zodCompilers },
  })
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute)
  // The API speaks JSON only (uploads add multipart later); anything else is 415, not a confusing 400.
  app.removeContentTypeParser('text/plain')
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  guardBodyPace(app.server, config.timeouts, app.log)
  // Prometheus metrics only when asked for (METRICS_PORT or METRICS_TOKEN); otherwise no-ops.
  const metrics = config.metrics.port !== undefined || config.metrics.token ? createMetrics() : noMetrics
  registerErrorHandler(app, metrics)
  registerRequestIds(app)
  registerRequestLog(app)
  registerMetrics(app, { config, database, metrics })
  app.decorate('drain', registerDrain(app))

  const transport =
    opts.mailTransport ??
    (config.smtpUrl
      ? createSmtpTransport(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs)
      : createMailFolderTransport(app.log, path.join(config.dataDir, 'mail'), config.mailFrom))
  const worker = startOutboxWorker({
    db: database.db,
    transport,
    log: app.log,
    intervalMs: config.outboxIntervalMs,
    smtpTimeoutMs: config.smtpTimeoutMs,
    metrics,
  })
  app.addHook('onClose', () => worker.stop())
  // Issue 27: push notices, queued with the change and sent after commit (docs/decisions/0053).
  const vapidKeys = opts.vapidKeys ?? config.push.vapid ?? vapidFromSecret(randomBytes(32).toString('hex'))
  const pushWorker = startPushWorker({
    db: database.db,
    log: app.log,
    vapid: vapidKeys,
    subject: config.push.subject,
    intervalMs: config.outboxIntervalMs,
    timeoutMs: config.push.timeoutMs,
    privateHostsToo: isLoopbackHost(new URL(config.publicUrl).hostname),
  })
  app.addHook('onClose', () => pushWorker.stop())

  const clock = opts.clock ?? (() => new Date())
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    sessionTokens: createSessionTokens(opts.jwtSecret),
    unsubscribeTokens: createUnsubscribeTokens(opts.jwtSecret),
    rateLimits: config.rateLimits
      ? createRateLimits(database.pool ? { kind: 'postgres', pool: database.pool } : { kind: 'memory' }, {
          registrationsPerHour: config.registrationsPerHour,
          onRefusal: (limiter) => metrics.rateLimited(limiter),
        })
      : noRateLimits,
    // A committed change's emails and push notices (both queued in its transaction).
    nudgeMail: () => {
      worker.nudge()
      pushWorker.nudge()
    },
    invitations: invitationLookup,
    events: createEventBus((error) => app.log.error({ err: error }, 'event listener failed')),
    log: app.log,
    metrics,
    clock,
  }
  const accounts = createAccountsService(ctx)
  const store =
    database.kind === 'postgres'
      ? createDatabaseStore(database.db)
      : createDiskStore(path.join(config.dataDir, 'uploads'))
  const signer =
    opts.ledgerKey ??
    ledgerSigner(config.publicUrl, randomBytes(32).toString('hex'), config.ledgerPreviousKeys)
  // Issue 28: condition photos; the ledger serves and verifies the ones its blocks commit to.
  const condition = createConditionService(ctx, store)
  condition.start()
  app.addHook('onClose', () => condition.stop())
  const ledger = createLedgerService(ctx, signer, condition)
  // Issue 29: the checkpoints go to the outside witnesses of LEDGER_WITNESSES, if any.
  const outsideWitnesses = startOutsideWitnesses(ctx, ledger)
  if (outsideWitnesses) app.addHook('onClose', () => outsideWitnesses.stop())
  const activities = createActivitiesService(ctx)
  const notices = createNoticesService(ctx)
  const items = createItemsService(ctx, store, ledger, activities)
  const avatars = createAvatarsService(ctx, store)
  const handovers = createHandoversService(ctx, ledger, activities, notices, items, condition)
  // Issue 26: LOAN and RETURN handovers are the loans module's to confirm (docs/decisions/0047).
  const loans = createLoansService(ctx, { ledger, activities, notices, handovers })
  handovers.useLending(loans.hooks)
  // Asks to borrow sit above handovers (its onAnswered hook); a return offers the item to the next in line.
  const borrowRequests = createBorrowRequestsService(ctx, handovers, activities, notices)
  registerReturnListener(loans, borrowRequests)
  const circles = createCirclesService(ctx, items, handovers, activities, loans, borrowRequests)
  opts.exposeServices?.({ borrowRequests })
  // Issue 26: every instance scans for due loan reminders, like the outbox worker sends the outbox.
  const loanReminders = createLoanReminders(ctx, { activities, notices, clock })
  app.decorate('loanReminders', loanReminders)
  loanReminders.start()
  app.addHook('onClose', () => loanReminders.stop())
  const calendar = createCalendarService(ctx, clock, opts.jwtSecret)
  const webauthn = createWebauthnService(ctx, accounts)
  const push = createPushService(ctx, vapidKeys)
  const accountDeletion = createAccountDeletionService(ctx, {
    store,
    circles,
    activities,
    webauthn,
    loans,
    push,
  })

  registerSecurity(app, config)
  // Text answers (HTML, JS, CSS, JSON) over 1 KiB, brotli or gzip as the browser accepts. Brotli at
  // quality 5 instead of 4: the same speed at these sizes, and a first-visit sign-in page (about 66 KB)
  // fits the first round trip (14 KB) instead of just missing it.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  })
  await registerDocs(app, config.publicUrl)
  await app.register(authPlugin, { authenticate: accounts.authenticate })

  await app.register(
    async (api) => {
      if (config.rateLimits) registerApiCeiling(api, (limiter) => metrics.rateLimited(limiter))
      await api.register(
        healthRoutes(
          database,
          (timeoutMs) => fanOutListening(app.io, timeoutMs),
          () => app.drain.draining,
        ),
      )
      await api.register(
        usersRoutes({
          accounts,
          verification: createVerificationService(ctx, accounts),
          passwordReset: createPasswordResetService(ctx),
          notices,
        }),
        { prefix: '/users' },
      )
      await api.register(changePasswordRoutes(createChangePasswordService(ctx)), { prefix: '/users' })
      await api.register(avatarsRoutes(avatars), { prefix: '/users' })
      await api.register(accountDeletionRoutes(accountDeletion), { prefix: '/users' })
      await api.register(contactRoutes(createContactService(ctx)))
      await api.register(circlesRoutes(circles, createInvitationsService(ctx, activities, notices)), {
        prefix: '/circles',
      })
      await api.register(itemsRoutes(items), { prefix: '/items' })
      await api.register(handoversRoutes(handovers), { prefix: '/handovers' })
      await api.register(conditionRoutes(condition), { prefix: '/handovers' })
      await api.register(borrowRequestsRoutes(borrowRequests))
      await api.register(loansRoutes(loans), { prefix: '/loans' })
      await api.register(ledgerRoutes(ledger), { prefix: '/blockchain' })
      await api.register(ledgerLogRoutes(ledger), { prefix: '/ledger' })
      await api.register(witnessRoutes(createWitnessService(ctx, signer)), { prefix: '/ledger' })
      await api.register(activitiesRoutes(activities))
      await api.register(webauthnRoutes(webauthn), { prefix: '/webauthn' })
      await api.register(exportRoutes(createExportService(ctx, store, signer)), { prefix: '/users' })
      await api.register(calendarRoutes(calendar))
      await api.register(pushRoutes(push), { prefix: '/push' })
    },
    { prefix: '/api' },
  )

  await registerSpa(
    app,
    opts.webDir === null ? undefined : (opts.webDir ?? defaultWebDir),
    { contactEmail: config.contactEmail, staging: config.staging },
    { authenticate: accounts.authenticate },
  )
  app.decorate(
    'io',
    attachSocketServer(app, {
      authenticate: accounts.authenticate,
      isMember: circles.isMember,
      circleIdsOf: circles.circleIdsOf,
      events: ctx.events,
      eventLog: createEventLog(database.db),
      pool: database.pool,
      maxSocketsPerAccount: config.socketsPerAccount,
      log: app.log,
    }),
  )
  return app
}

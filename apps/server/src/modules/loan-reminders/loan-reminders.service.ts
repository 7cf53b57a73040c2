import os from 'node:os'
import type { TLoanReminderActivityData } from '@circles/shared'
import type { AppContext } from '../../context'
import { isDatabaseUnavailable, outageSummary } from '../../lib/database-unavailable'
import {
  formatDue,
  loanReminderEmail,
  type LoanReminderEmailKind,
} from '../../lib/mailer/loan-reminder-templates'
import { type OutgoingEmail, enqueueEmails } from '../../lib/mailer/outbox'
import { enqueuePushes } from '../../lib/push/queue'
import type { Notice } from '../../lib/events'
import type { ActivitiesService } from '../activities/activities.service'
import type { NoticesService, OutgoingPush } from '../users/notices.service'
import * as repo from './loan-reminders.repository'
import type { DueLoan } from './loan-reminders.repository'
import { type DueReminder, borrowerReminder, lenderReminder, parseOffsets, scanWindow } from './schedule'

/** Loans read (and reminders claimed) per page and transaction. */
export const SCAN_BATCH = 1000
/** Reminders prepared (worded, rendered) between two turns of the event loop: requests keep flowing. */
const PREPARE_SLICE = 20
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve))

const EMAIL_KIND: Record<DueReminder['type'], LoanReminderEmailKind> = {
  LOAN_DUE_SOON: 'due-soon',
  LOAN_DUE_TODAY: 'due-today',
  LOAN_OVERDUE: 'overdue',
  LOAN_OVERDUE_LENDER: 'overdue-lender',
}

export interface ScanResult {
  /** Loans looked at. */
  loans: number
  /** Reminders this instance claimed and queued (feed entries; emails only for those who want them). */
  sent: number
  /** Emails among them. */
  emails: number
}

export interface LoanReminders {
  /** One scan at `now` (the app's clock when left out). Safe to run on any number of instances at once. */
  scan(now?: Date): Promise<ScanResult>
  /** Scans every LOAN_REMINDER_SCAN_INTERVAL until stopped. */
  start(): void
  /** Stops the timer and waits for a scan in progress. */
  stop(): Promise<void>
}

interface Candidate {
  loan: DueLoan
  reminder: DueReminder
  to: DueLoan['borrower']
  claim: repo.Claim
}

/**
 * The loan reminder scanner (issue 26, docs/decisions/0049). Every instance runs it, like the outbox
 * worker; each reminder is claimed in `loan_reminders` in the transaction that writes its feed entry
 * and queues its email, so it goes out once from any number of instances and across restarts.
 */
export function createLoanReminders(
  ctx: AppContext,
  deps: { activities: ActivitiesService; notices: NoticesService; clock: () => Date },
): LoanReminders {
  const offsets = parseOffsets(ctx.config.loanReminders.offsets)
  const intervalMs = ctx.config.loanReminders.scanIntervalMs
  const instance = `${os.hostname()}:${process.pid}`
  const base = ctx.config.publicUrl

  function candidatesOf(loan: DueLoan, now: Date): Candidate[] {
    const found: Candidate[] = []
    const times = { dueAt: loan.dueAt, startedAt: loan.startedAt }
    const claimed = repo.claimedKinds(loan)
    const add = (to: DueLoan['borrower'], reminder: DueReminder | null) => {
      if (!reminder || to.deletedAt || claimed.has(reminder.kind)) return
      found.push({ loan, reminder, to, claim: { loanId: loan.id, kind: reminder.kind, dueAt: loan.dueAt } })
    }
    add(loan.borrower, borrowerReminder(times, now, offsets, loan.borrower.timeZone ?? 'UTC'))
    add(loan.lender, lenderReminder(times, now, loan.lender.timeZone ?? 'UTC'))
    return found
  }

  function emailOf(c: Candidate): OutgoingEmail | null {
    return deps.notices.emailFor(c.to, 'loanReminders', renderOf(c))
  }

  /** Issue 27: the same reminder's push notice, if the recipient wants it on their devices. */
  function pushOf(c: Candidate): OutgoingPush | null {
    return deps.notices.pushFor(c.to, 'loanReminders', renderOf(c))
  }

  function renderOf({ loan, reminder }: Candidate) {
    return (recipient: Candidate['to'], unsubscribeUrl: string) =>
      loanReminderEmail(recipient.language, {
        kind: EMAIL_KIND[reminder.type],
        name: recipient.name,
        itemName: loan.itemName,
        lenderName: loan.lender.name,
        borrowerName: loan.borrower.name,
        due: formatDue(loan.dueAt, recipient.language, recipient.timeZone ?? 'UTC'),
        overdueNotice: reminder.overdueNotice,
        link: `${base}/items/${loan.itemId}`,
        unsubscribeUrl,
      })
  }

  function dataOf(c: Candidate): TLoanReminderActivityData {
    const { loan, reminder } = c
    return {
      loanId: loan.id,
      item: { id: loan.itemId, name: loan.itemName },
      circleId: loan.circleId,
      lender: { name: loan.lender.name },
      borrower: { name: loan.borrower.name },
      dueAt: loan.dueAt.toISOString(),
      ...(reminder.overdueNotice ? { overdueNotice: reminder.overdueNotice } : {}),
    }
  }

  /** Claims and sends one page's due reminders in one transaction. */
  async function sendBatch(candidates: Candidate[], now: Date): Promise<{ sent: number; emails: number }> {
    // Reminders claimed before the page was read are not candidates (the read brings the claims
    // along); one claimed since then is skipped by the claim itself.
    const open = candidates
    // Worded and rendered before the transaction, a slice at a time, so neither the event loop nor a
    // database connection is held for the CPU work.
    const prepared: {
      c: Candidate
      data: TLoanReminderActivityData
      email: OutgoingEmail | null
      push: OutgoingPush | null
    }[] = []
    for (let i = 0; i < open.length; i++) {
      if (i > 0 && i % PREPARE_SLICE === 0) await yieldToRequests()
      const c = open[i]!
      prepared.push({ c, data: dataOf(c), email: emailOf(c), push: pushOf(c) })
    }
    let notices: Notice[] = []
    let emails = 0
    let pushed = 0
    await ctx.db.transaction(async (tx) => {
      const won = await repo.claim(
        tx,
        open.map((c) => c.claim),
        instance,
        now,
      )
      const mine = prepared.filter((p) => won.has(repo.claimKey(p.c.claim)))
      notices = await deps.activities.recordLoanReminders(
        tx,
        mine.map((p) => ({ userId: p.c.to.id, type: p.c.reminder.type, data: p.data })),
      )
      const outgoing = mine.map((p) => p.email).filter((e): e is OutgoingEmail => e !== null)
      await enqueueEmails(tx, outgoing)
      emails = outgoing.length
      const pushes = mine.map((p) => p.push).filter((p): p is OutgoingPush => p !== null)
      await enqueuePushes(tx, pushes)
      pushed = pushes.length
    })
    deps.activities.publish(notices)
    if (emails > 0 || pushed > 0) ctx.nudgeMail()
    return { sent: notices.length, emails }
  }

  async function scan(now: Date = deps.clock()): Promise<ScanResult> {
    const range = scanWindow(now, offsets)
    const result: ScanResult = { loans: 0, sent: 0, emails: 0 }
    let after: { dueAt: Date; id: string } | null = null
    for (;;) {
      const page = await repo.dueLoansPage(ctx.db, range, after, SCAN_BATCH)
      result.loans += page.length
      const candidates: Candidate[] = []
      for (let i = 0; i < page.length; i++) {
        if (i > 0 && i % (PREPARE_SLICE * 10) === 0) await yieldToRequests()
        candidates.push(...candidatesOf(page[i]!, now))
      }
      if (candidates.length > 0) {
        const { sent, emails } = await sendBatch(candidates, now)
        result.sent += sent
        result.emails += emails
      }
      if (page.length < SCAN_BATCH) break
      const last = page[page.length - 1]!
      after = { dueAt: last.dueAt, id: last.id }
    }
    if (result.sent > 0) ctx.log.info(result, 'loan reminders sent')
    return result
  }

  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | null = null
  let outage = false
  let stopped = false

  function tick() {
    if (running || stopped) return
    running = scan()
      .then(() => {
        if (outage) ctx.log.info('loan reminders: database reachable again')
        outage = false
      })
      .catch((error) => {
        if (isDatabaseUnavailable(error)) {
          if (!outage)
            ctx.log.warn({ database: outageSummary(error) }, 'loan reminders: database unavailable; retrying')
          outage = true
        } else ctx.log.error({ err: error }, 'loan reminder scan failed')
      })
      .finally(() => {
        running = null
      })
  }

  return {
    scan,
    start() {
      if (timer || stopped) return
      timer = setInterval(tick, intervalMs)
      timer.unref()
    },
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}

import type { Language } from '@circles/shared'
import { type NoticeLinks, type Template, finish, unsubscribeLine } from './templates'

/** Issue 26 (docs/decisions/0049): the loan reminders and overdue notices, in the recipient's language. */
export type LoanReminderEmailKind = 'due-soon' | 'due-today' | 'overdue' | 'overdue-lender'

export interface LoanReminderData extends NoticeLinks {
  kind: LoanReminderEmailKind
  /** The recipient's name. */
  name: string
  itemName: string
  lenderName: string
  borrowerName: string
  /** The due date, worded in the recipient's language and time zone. */
  due: string
  /** LOAN_OVERDUE: which notice of three. */
  overdueNotice?: number
}

/** The return date in the recipient's language and zone: "Monday, 30 March 2026 at 18:00". */
export function formatDue(dueAt: Date, language: Language, timeZone: string): string {
  const key = `${language}|${timeZone}`
  let format = dueFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
      dateStyle: 'full',
      timeStyle: 'short',
      timeZone,
    })
    if (dueFormats.size > 1000) dueFormats.clear()
    dueFormats.set(key, format)
  }
  return format.format(dueAt)
}
/** Built once per language and zone: a scan words thousands of dates. */
const dueFormats = new Map<string, Intl.DateTimeFormat>()

const loanReminder: Template<LoanReminderData> = {
  en: (d) => {
    const text = {
      'due-soon': {
        subject: `Reminder: return ${d.itemName} to ${d.lenderName} by ${d.due}`,
        heading: `${d.itemName} is due back soon`,
        body: `${d.itemName}, which you borrowed from ${d.lenderName}, is due back on ${d.due}. If you need it longer, ask ${d.lenderName} for a later date in Circles.`,
      },
      'due-today': {
        subject: `Today: return ${d.itemName} to ${d.lenderName}`,
        heading: `${d.itemName} is due back today`,
        body: `${d.itemName}, which you borrowed from ${d.lenderName}, is due back today (${d.due}). If you need it longer, ask ${d.lenderName} for a later date in Circles.`,
      },
      overdue: {
        subject: `Overdue: please return ${d.itemName} to ${d.lenderName}`,
        heading: `${d.itemName} is overdue`,
        body: `${d.itemName} was due back to ${d.lenderName} on ${d.due}. Please return it, or ask ${d.lenderName} for a later date in Circles.`,
      },
      'overdue-lender': {
        subject: `${d.itemName} is overdue from ${d.borrowerName}`,
        heading: `${d.itemName} has not come back yet`,
        body: `${d.borrowerName} was to return ${d.itemName} on ${d.due}. We reminded them too. You can change the date or record the return in Circles.`,
      },
    }[d.kind]
    return {
      subject: text.subject,
      preheader: text.heading,
      heading: text.heading,
      paragraphs: [`Hi ${d.name},`, text.body],
      action: { label: 'View the item', url: d.link },
      unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
    }
  },
  de: (d) => {
    const text = {
      'due-soon': {
        subject: `Erinnerung: Gib ${d.itemName} bis ${d.due} an ${d.lenderName} zurück`,
        heading: `${d.itemName} muss bald zurück`,
        body: `${d.itemName}, das du von ${d.lenderName} geliehen hast, soll am ${d.due} zurück sein. Wenn du es länger brauchst, bitte ${d.lenderName} in Circles um einen späteren Termin.`,
      },
      'due-today': {
        subject: `Heute: Gib ${d.itemName} an ${d.lenderName} zurück`,
        heading: `${d.itemName} muss heute zurück`,
        body: `${d.itemName}, das du von ${d.lenderName} geliehen hast, soll heute zurück sein (${d.due}). Wenn du es länger brauchst, bitte ${d.lenderName} in Circles um einen späteren Termin.`,
      },
      overdue: {
        subject: `Überfällig: Bitte gib ${d.itemName} an ${d.lenderName} zurück`,
        heading: `${d.itemName} ist überfällig`,
        body: `${d.itemName} sollte am ${d.due} wieder bei ${d.lenderName} sein. Bitte gib es zurück oder bitte ${d.lenderName} in Circles um einen späteren Termin.`,
      },
      'overdue-lender': {
        subject: `${d.itemName} ist bei ${d.borrowerName} überfällig`,
        heading: `${d.itemName} ist noch nicht zurück`,
        body: `${d.borrowerName} sollte ${d.itemName} am ${d.due} zurückgeben. Wir haben auch ${d.borrowerName} erinnert. Du kannst den Termin in Circles ändern oder die Rückgabe festhalten.`,
      },
    }[d.kind]
    return {
      subject: text.subject,
      preheader: text.heading,
      heading: text.heading,
      paragraphs: [`Hallo ${d.name},`, text.body],
      action: { label: 'Gegenstand ansehen', url: d.link },
      unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
    }
  },
}

export const loanReminderEmail = (lang: Language, d: LoanReminderData) =>
  finish(`loan-${d.kind}`, lang, loanReminder[lang](d))

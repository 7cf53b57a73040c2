import type { Language } from '@circles/shared'
import type { EmailParts } from './layout'
import { finish, unsubscribeLine } from './templates'

/**
 * The email notices of asks to borrow (issue 26, docs/decisions/0048), switched by the recipient's
 * `borrowRequests` notice setting. Never the ask's message or a decline reason in an email subject.
 */
type Template<D> = Record<Language, (d: D) => { subject: string } & EmailParts>

export interface BorrowNoticeData {
  askerName: string
  ownerName: string
  itemName: string
  link: string
  unsubscribeUrl: string
}

/** To the owner: a member asked to borrow their item. */
const borrowRequested: Template<BorrowNoticeData & { queueLength: number }> = {
  en: (d) => ({
    subject: `${d.askerName} asks to borrow ${d.itemName}`,
    preheader: 'Lend it or decline the request in Circles.',
    heading: `${d.askerName} asks to borrow ${d.itemName}`,
    paragraphs: [
      `Hi ${d.ownerName},`,
      `${d.askerName} would like to borrow ${d.itemName}.` +
        (d.queueLength > 1 ? ` ${d.queueLength} people are waiting for it now.` : ''),
    ],
    action: { label: 'Answer the request', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.askerName} möchte ${d.itemName} leihen`,
    preheader: 'Verleih den Gegenstand oder lehne die Anfrage in Circles ab.',
    heading: `${d.askerName} möchte ${d.itemName} leihen`,
    paragraphs: [
      `Hallo ${d.ownerName},`,
      `${d.askerName} möchte ${d.itemName} gern leihen.` +
        (d.queueLength > 1 ? ` Jetzt warten ${d.queueLength} Personen darauf.` : ''),
    ],
    action: { label: 'Auf die Anfrage antworten', url: d.link },
    unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
  }),
}

/** To the asker: the owner declined (the reason, if given, is in the email body only). */
const borrowDeclined: Template<BorrowNoticeData & { reason: string | null }> = {
  en: (d) => ({
    subject: `${d.ownerName} declined your request to borrow ${d.itemName}`,
    preheader: 'Your request to borrow was declined.',
    heading: `${d.ownerName} declined your request`,
    paragraphs: [
      `Hi ${d.askerName},`,
      `${d.ownerName} cannot lend you ${d.itemName} this time.`,
      ...(d.reason ? [`${d.ownerName} wrote: ${d.reason}`] : []),
    ],
    action: { label: 'View the item', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.ownerName} hat deine Leihanfrage für ${d.itemName} abgelehnt`,
    preheader: 'Deine Leihanfrage wurde abgelehnt.',
    heading: `${d.ownerName} hat deine Anfrage abgelehnt`,
    paragraphs: [
      `Hallo ${d.askerName},`,
      `${d.ownerName} kann dir ${d.itemName} diesmal nicht leihen.`,
      ...(d.reason ? [`${d.ownerName} schreibt: ${d.reason}`] : []),
    ],
    action: { label: 'Gegenstand ansehen', url: d.link },
    unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
  }),
}

/** To the owner: their item came back and the next in line was offered it (a loan request they may cancel). */
const borrowOffered: Template<BorrowNoticeData> = {
  en: (d) => ({
    subject: `${d.itemName} was offered to ${d.askerName}, next in line`,
    preheader: 'A loan request went to the next person in the queue.',
    heading: `${d.askerName} is next in line for ${d.itemName}`,
    paragraphs: [
      `Hi ${d.ownerName},`,
      `${d.itemName} is back, and ${d.askerName} was next in the queue. A loan request with the wished dates went to ${d.askerName}. You can cancel it on the item's page.`,
    ],
    action: { label: 'View the item', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.itemName} wurde ${d.askerName} angeboten, als Nächstes in der Warteschlange`,
    preheader: 'Eine Leihanfrage ist an die nächste Person in der Warteschlange gegangen.',
    heading: `${d.askerName} ist als Nächstes dran für ${d.itemName}`,
    paragraphs: [
      `Hallo ${d.ownerName},`,
      `${d.itemName} ist zurück, und ${d.askerName} war als Nächstes in der Warteschlange. Eine Leihanfrage mit den gewünschten Daten ist an ${d.askerName} gegangen. Du kannst sie auf der Seite des Gegenstands zurückziehen.`,
    ],
    action: { label: 'Gegenstand ansehen', url: d.link },
    unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
  }),
}

export const borrowEmails = {
  borrowRequested: (lang: Language, d: BorrowNoticeData & { queueLength: number }) =>
    finish('borrow-requested', lang, borrowRequested[lang](d)),
  borrowDeclined: (lang: Language, d: BorrowNoticeData & { reason: string | null }) =>
    finish('borrow-declined', lang, borrowDeclined[lang](d)),
  borrowOffered: (lang: Language, d: BorrowNoticeData) =>
    finish('borrow-offered', lang, borrowOffered[lang](d)),
}

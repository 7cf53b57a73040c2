import type { Language } from '@circles/shared'
import { type EmailParts, renderHtml, renderText } from './layout'

export interface RenderedEmail {
  kind: string
  subject: string
  text: string
  html: string
  /** Notices only: the one-click unsubscribe URL (List-Unsubscribe). */
  listUnsubscribe?: string
  /** The short form a push notice shows (issue 27): the subject, the preheader, the action's page. */
  short?: { title: string; body: string; link?: string }
}

export type Template<D> = Record<Language, (d: D) => { subject: string } & EmailParts>

const verifyEmail: Template<{ name: string; link: string }> = {
  en: ({ name, link }) => ({
    subject: 'Verify your email for Circles',
    preheader: 'One click and your account is ready.',
    heading: 'Confirm your email address',
    paragraphs: [`Hi ${name},`, 'Welcome to Circles! Please confirm that this is your email address.'],
    action: { label: 'Verify email', url: link },
    footnote: "This link expires in 1 hour. If you didn't create an account, you can ignore this email.",
  }),
  de: ({ name, link }) => ({
    subject: 'Bestätige deine E-Mail-Adresse für Circles',
    preheader: 'Ein Klick, und dein Konto ist bereit.',
    heading: 'Bestätige deine E-Mail-Adresse',
    paragraphs: [
      `Hallo ${name},`,
      'willkommen bei Circles! Bitte bestätige, dass dies deine E-Mail-Adresse ist.',
    ],
    action: { label: 'E-Mail bestätigen', url: link },
    footnote:
      'Der Link ist 1 Stunde gültig. Wenn du kein Konto angelegt hast, kannst du diese E-Mail ignorieren.',
  }),
}

const passwordReset: Template<{ name: string; link: string }> = {
  en: ({ name, link }) => ({
    subject: 'Reset your Circles password',
    preheader: 'Choose a new password.',
    heading: 'Reset your password',
    paragraphs: [`Hi ${name},`, 'We received a request to reset the password of your Circles account.'],
    action: { label: 'Choose a new password', url: link },
    footnote:
      "This link can be used once and expires in 1 hour. If you didn't ask for it, ignore this email: your password stays as it is.",
  }),
  de: ({ name, link }) => ({
    subject: 'Setze dein Circles-Passwort zurück',
    preheader: 'Wähle ein neues Passwort.',
    heading: 'Passwort zurücksetzen',
    paragraphs: [
      `Hallo ${name},`,
      'wir haben eine Anfrage erhalten, das Passwort deines Circles-Kontos zurückzusetzen.',
    ],
    action: { label: 'Neues Passwort wählen', url: link },
    footnote:
      'Der Link funktioniert einmal und ist 1 Stunde gültig. Wenn du das nicht angefordert hast, ignoriere diese E-Mail: Dein Passwort bleibt unverändert.',
  }),
}

/**
 * The security notice after a password change (issue 24, docs/decisions/0039): always sent, no
 * unsubscribe, no secret; its link leads to a reset in case someone else changed it.
 */
const passwordChanged: Template<{ name: string; resetLink: string }> = {
  en: ({ name, resetLink }) => ({
    subject: 'Your Circles password was changed',
    preheader: 'If this was you, there is nothing to do.',
    heading: 'Your password was changed',
    paragraphs: [
      `Hi ${name},`,
      'The password of your Circles account was just changed, and every other device where you were signed in has been signed out.',
      "If this wasn't you, reset your password right away and check the passkeys in your profile.",
    ],
    action: { label: 'Reset my password', url: resetLink },
    footnote: 'We send this notice for your security after every password change; it cannot be switched off.',
  }),
  de: ({ name, resetLink }) => ({
    subject: 'Dein Circles-Passwort wurde geändert',
    preheader: 'Wenn du das warst, musst du nichts tun.',
    heading: 'Dein Passwort wurde geändert',
    paragraphs: [
      `Hallo ${name},`,
      'das Passwort deines Circles-Kontos wurde soeben geändert, und du wurdest auf allen anderen Geräten abgemeldet.',
      'Wenn du das nicht warst, setze dein Passwort sofort zurück und prüfe die Passkeys in deinem Profil.',
    ],
    action: { label: 'Passwort zurücksetzen', url: resetLink },
    footnote:
      'Diesen Hinweis senden wir dir zu deiner Sicherheit nach jeder Passwortänderung; er lässt sich nicht abbestellen.',
  }),
}

interface InvitationData {
  inviterName: string
  circleName: string
  link: string
}

const circleInvitation: Template<InvitationData> = {
  en: ({ inviterName, circleName, link }) => ({
    subject: `${inviterName} invited you to ${circleName} on Circles`,
    preheader: `Join ${circleName} to share and hand over things you trust each other with.`,
    heading: `Join ${circleName}`,
    paragraphs: [
      `${inviterName} invited you to the circle “${circleName}” on Circles, where members lend and hand over things to each other and every handover is recorded.`,
      "If you don't have an account yet, you can create one with this email address from the link.",
    ],
    action: { label: 'Accept invitation', url: link },
    footnote: "This invitation expires in 7 days. If you don't know the sender, you can ignore this email.",
  }),
  de: ({ inviterName, circleName, link }) => ({
    subject: `${inviterName} hat dich zu ${circleName} bei Circles eingeladen`,
    preheader: `Tritt ${circleName} bei und teile Dinge mit Menschen, denen du vertraust.`,
    heading: `Tritt ${circleName} bei`,
    paragraphs: [
      `${inviterName} hat dich in den Kreis „${circleName}“ bei Circles eingeladen. Dort verleihen und übergeben sich die Mitglieder Dinge, und jede Übergabe wird festgehalten.`,
      'Wenn du noch kein Konto hast, kannst du über den Link eines mit dieser E-Mail-Adresse anlegen.',
    ],
    action: { label: 'Einladung annehmen', url: link },
    footnote:
      'Die Einladung ist 7 Tage gültig. Wenn du den Absender nicht kennst, kannst du diese E-Mail ignorieren.',
  }),
}

/** The unsubscribe line of a notice, in the recipient's language. */
export interface NoticeLinks {
  /** The page that acts on the notice. */
  link: string
  /** The page where the recipient switches this kind of email off. */
  unsubscribeUrl: string
}

export const unsubscribeLine = {
  en: (url: string) => ({
    text: 'You get this email because notices of this kind are on in your profile.',
    label: 'Stop these emails',
    url,
  }),
  de: (url: string) => ({
    text: 'Du bekommst diese E-Mail, weil solche Benachrichtigungen in deinem Profil eingeschaltet sind.',
    label: 'Diese E-Mails abbestellen',
    url,
  }),
}

type HandoverNoticeData = NoticeLinks & {
  senderName: string
  receiverName: string
  itemName: string
  /** Issue 26: a LOAN request's return date, already written for the recipient (language, time zone). */
  dueAt?: string
}

const handoverRequested: Template<HandoverNoticeData> = {
  en: (d) => ({
    subject: `${d.senderName} wants to ${d.dueAt ? 'lend' : 'hand'} you ${d.itemName}`,
    preheader: 'Accept or reject the handover in Circles.',
    heading: `${d.senderName} wants to ${d.dueAt ? 'lend' : 'hand'} you ${d.itemName}`,
    paragraphs: [
      `Hi ${d.receiverName},`,
      d.dueAt
        ? `${d.senderName} would like to lend you ${d.itemName} until ${d.dueAt}. Please accept or reject the request.`
        : `${d.senderName} asked to hand ${d.itemName} over to you. Please accept or reject the request.`,
    ],
    action: { label: 'Respond to the request', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.senderName} möchte dir ${d.itemName} ${d.dueAt ? 'leihen' : 'übergeben'}`,
    preheader: 'Nimm die Übergabe in Circles an oder lehne sie ab.',
    heading: `${d.senderName} möchte dir ${d.itemName} ${d.dueAt ? 'leihen' : 'übergeben'}`,
    paragraphs: [
      `Hallo ${d.receiverName},`,
      d.dueAt
        ? `${d.senderName} möchte dir ${d.itemName} bis ${d.dueAt} leihen. Bitte nimm die Anfrage an oder lehne sie ab.`
        : `${d.senderName} möchte dir ${d.itemName} übergeben. Bitte nimm die Anfrage an oder lehne sie ab.`,
    ],
    action: { label: 'Auf die Anfrage antworten', url: d.link },
    unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
  }),
}

const handoverAnswered: Template<HandoverNoticeData & { accepted: boolean }> = {
  en: (d) => ({
    subject: `${d.receiverName} ${d.accepted ? 'accepted' : 'rejected'} ${d.itemName}`,
    preheader: d.accepted ? 'The handover is recorded in the ledger.' : 'The item stays with you.',
    heading: `${d.receiverName} ${d.accepted ? 'accepted' : 'rejected'} your handover`,
    paragraphs: [
      `Hi ${d.senderName},`,
      d.accepted
        ? `${d.receiverName} accepted ${d.itemName}. The handover is recorded in your circle's ledger.`
        : `${d.receiverName} rejected your request to hand over ${d.itemName}. The item stays with you.`,
    ],
    action: { label: 'View the item', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.receiverName} hat ${d.itemName} ${d.accepted ? 'angenommen' : 'abgelehnt'}`,
    preheader: d.accepted ? 'Die Übergabe ist im Protokoll festgehalten.' : 'Der Gegenstand bleibt bei dir.',
    heading: `${d.receiverName} hat deine Übergabe ${d.accepted ? 'angenommen' : 'abgelehnt'}`,
    paragraphs: [
      `Hallo ${d.senderName},`,
      d.accepted
        ? `${d.receiverName} hat ${d.itemName} angenommen. Die Übergabe ist im Protokoll deines Kreises festgehalten.`
        : `${d.receiverName} hat deine Anfrage, ${d.itemName} zu übergeben, abgelehnt. Der Gegenstand bleibt bei dir.`,
    ],
    action: { label: 'Gegenstand ansehen', url: d.link },
    unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
  }),
}

/**
 * The steps of a loan (issue 26, docs/decisions/0047), under the `loanChanges` switch. `otherName` is the
 * other party; `dueAt` (and `previousDueAt`) already written for the recipient.
 */
export type LoanStep =
  | 'started'
  | 'returnStarted'
  | 'returned'
  | 'extensionRequested'
  | 'extensionAccepted'
  | 'extensionDeclined'
  | 'dueChanged'
  | 'recalled'
type LoanNoticeData = NoticeLinks & {
  step: LoanStep
  recipientName: string
  otherName: string
  itemName: string
  dueAt: string | null
}
const loanTexts: Record<Language, (d: LoanNoticeData) => { subject: string; line: string; action: string }> =
  {
    en: (d) => {
      const until = d.dueAt ? ` until ${d.dueAt}` : ''
      switch (d.step) {
        case 'started':
          return {
            subject: `${d.itemName} is lent to ${d.otherName}${until}`,
            line: `${d.otherName} accepted ${d.itemName}. It is lent${until}; you stay its owner. The loan is recorded in your circle's ledger.`,
            action: 'View the item',
          }
        case 'returnStarted':
          return {
            subject: `${d.otherName} is returning ${d.itemName}`,
            line: `${d.otherName} recorded the return of ${d.itemName}. Please confirm it in Circles.`,
            action: 'Confirm the return',
          }
        case 'returned':
          return {
            subject: `${d.itemName} is back`,
            line: `The return of ${d.itemName} is confirmed and recorded in your circle's ledger.`,
            action: 'View the item',
          }
        case 'extensionRequested':
          return {
            subject: `${d.otherName} asks to keep ${d.itemName} longer`,
            line: `${d.otherName} would like to keep ${d.itemName}${until}. Please accept or decline.`,
            action: 'Answer the request',
          }
        case 'extensionAccepted':
          return {
            subject: `You may keep ${d.itemName}${until}`,
            line: `${d.otherName} accepted your request: ${d.itemName} is now due back${until}.`,
            action: 'View the item',
          }
        case 'extensionDeclined':
          return {
            subject: `${d.otherName} declined your request for ${d.itemName}`,
            line: `${d.otherName} declined a later return date. ${d.itemName} is still due back${until}.`,
            action: 'View the item',
          }
        case 'dueChanged':
          return {
            subject: `New return date for ${d.itemName}`,
            line: `${d.otherName} changed the return date of ${d.itemName}: it is now due back${until}.`,
            action: 'View the item',
          }
        case 'recalled':
          return {
            subject: `${d.itemName} is to be returned`,
            line: `${d.otherName} is no longer in the circle. ${d.itemName} is to be returned; record the return when it is back.`,
            action: 'View the item',
          }
      }
    },
    de: (d) => {
      const until = d.dueAt ? ` bis ${d.dueAt}` : ''
      switch (d.step) {
        case 'started':
          return {
            subject: `${d.itemName} ist an ${d.otherName} verliehen${until}`,
            line: `${d.otherName} hat ${d.itemName} angenommen. Der Gegenstand ist${until} verliehen; er gehört weiter dir. Die Leihe ist im Protokoll deines Kreises festgehalten.`,
            action: 'Gegenstand ansehen',
          }
        case 'returnStarted':
          return {
            subject: `${d.otherName} gibt ${d.itemName} zurück`,
            line: `${d.otherName} hat die Rückgabe von ${d.itemName} eingetragen. Bitte bestätige sie in Circles.`,
            action: 'Rückgabe bestätigen',
          }
        case 'returned':
          return {
            subject: `${d.itemName} ist zurück`,
            line: `Die Rückgabe von ${d.itemName} ist bestätigt und im Protokoll deines Kreises festgehalten.`,
            action: 'Gegenstand ansehen',
          }
        case 'extensionRequested':
          return {
            subject: `${d.otherName} möchte ${d.itemName} länger behalten`,
            line: `${d.otherName} möchte ${d.itemName}${until} behalten. Bitte nimm an oder lehne ab.`,
            action: 'Auf die Bitte antworten',
          }
        case 'extensionAccepted':
          return {
            subject: `Du darfst ${d.itemName}${until} behalten`,
            line: `${d.otherName} hat deine Bitte angenommen: ${d.itemName} ist jetzt${until} zurückzugeben.`,
            action: 'Gegenstand ansehen',
          }
        case 'extensionDeclined':
          return {
            subject: `${d.otherName} hat deine Bitte zu ${d.itemName} abgelehnt`,
            line: `${d.otherName} hat ein späteres Rückgabedatum abgelehnt. ${d.itemName} ist weiterhin${until} zurückzugeben.`,
            action: 'Gegenstand ansehen',
          }
        case 'dueChanged':
          return {
            subject: `Neues Rückgabedatum für ${d.itemName}`,
            line: `${d.otherName} hat das Rückgabedatum von ${d.itemName} geändert: Er ist jetzt${until} zurückzugeben.`,
            action: 'Gegenstand ansehen',
          }
        case 'recalled':
          return {
            subject: `${d.itemName} ist zurückzugeben`,
            line: `${d.otherName} ist nicht mehr im Kreis. ${d.itemName} ist zurückzugeben; trage die Rückgabe ein, sobald der Gegenstand zurück ist.`,
            action: 'Gegenstand ansehen',
          }
      }
    },
  }
const loanChanged: Template<LoanNoticeData> = {
  en: (d) => {
    const t = loanTexts.en(d)
    return {
      subject: t.subject,
      preheader: t.line,
      heading: t.subject,
      paragraphs: [`Hi ${d.recipientName},`, t.line],
      action: { label: t.action, url: d.link },
      unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
    }
  },
  de: (d) => {
    const t = loanTexts.de(d)
    return {
      subject: t.subject,
      preheader: t.line,
      heading: t.subject,
      paragraphs: [`Hallo ${d.recipientName},`, t.line],
      action: { label: t.action, url: d.link },
      unsubscribe: unsubscribeLine.de(d.unsubscribeUrl),
    }
  },
}

/** A date and time as the recipient reads it: their language, their time zone (UTC when unknown). */
export function formatDueAt(lang: Language, iso: string | Date, timeZone?: string | null): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso
  const format = (zone: string, named: boolean) =>
    new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: zone,
      ...(named ? { timeZoneName: 'short' as const } : {}),
    }).format(date)
  try {
    return timeZone ? format(timeZone, false) : format('UTC', true)
  } catch {
    // A time zone this runtime does not know: UTC, named.
    return format('UTC', true)
  }
}

const contactMessage = (d: { name: string; email: string; subject: string; message: string }) => ({
  subject: `[Contact] ${d.subject} from ${d.name}`,
  preheader: d.message.slice(0, 80),
  heading: `New message: ${d.subject}`,
  paragraphs: [`From: ${d.name} <${d.email}>`, ...d.message.split(/\n{2,}/)],
})

export function finish(kind: string, lang: string, parts: { subject: string } & EmailParts): RenderedEmail {
  return {
    kind,
    subject: parts.subject,
    text: renderText(parts),
    html: renderHtml(lang, parts),
    short: { title: parts.subject, body: parts.preheader, ...(parts.action && { link: parts.action.url }) },
  }
}

export const emails = {
  verifyEmail: (lang: Language, d: { name: string; link: string }) =>
    finish('verify-email', lang, verifyEmail[lang](d)),
  passwordReset: (lang: Language, d: { name: string; link: string }) =>
    finish('password-reset', lang, passwordReset[lang](d)),
  passwordChanged: (lang: Language, d: { name: string; resetLink: string }) =>
    finish('password-changed', lang, passwordChanged[lang](d)),
  circleInvitation: (lang: Language, d: InvitationData) =>
    finish('circle-invitation', lang, circleInvitation[lang](d)),
  /** The invitation itself as a notice to an existing account (QR invitations), with unsubscribe. */
  invitationNotice: (lang: Language, d: InvitationData & { unsubscribeUrl: string }) =>
    finish('invitation-notice', lang, {
      ...circleInvitation[lang](d),
      unsubscribe: unsubscribeLine[lang](d.unsubscribeUrl),
    }),
  handoverRequested: (lang: Language, d: HandoverNoticeData) =>
    finish('handover-requested', lang, handoverRequested[lang](d)),
  handoverAnswered: (lang: Language, d: HandoverNoticeData & { accepted: boolean }) =>
    finish('handover-answered', lang, handoverAnswered[lang](d)),
  loanChanged: (lang: Language, d: LoanNoticeData) => finish('loan-changed', lang, loanChanged[lang](d)),
  contactMessage: (d: { name: string; email: string; subject: string; message: string }) =>
    finish('contact-message', 'en', contactMessage(d)),
}

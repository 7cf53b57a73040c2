import type { Language } from '@circles/shared'
import { type EmailParts, renderHtml, renderText } from './layout'

export interface RenderedEmail {
  kind: string
  subject: string
  text: string
  html: string
  /** Notices only: the one-click unsubscribe URL (List-Unsubscribe). */
  listUnsubscribe?: string
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

type HandoverNoticeData = NoticeLinks & { senderName: string; receiverName: string; itemName: string }

const handoverRequested: Template<HandoverNoticeData> = {
  en: (d) => ({
    subject: `${d.senderName} wants to hand you ${d.itemName}`,
    preheader: 'Accept or reject the handover in Circles.',
    heading: `${d.senderName} wants to hand you ${d.itemName}`,
    paragraphs: [
      `Hi ${d.receiverName},`,
      `${d.senderName} asked to hand ${d.itemName} over to you. Please accept or reject the request.`,
    ],
    action: { label: 'Respond to the request', url: d.link },
    unsubscribe: unsubscribeLine.en(d.unsubscribeUrl),
  }),
  de: (d) => ({
    subject: `${d.senderName} möchte dir ${d.itemName} übergeben`,
    preheader: 'Nimm die Übergabe in Circles an oder lehne sie ab.',
    heading: `${d.senderName} möchte dir ${d.itemName} übergeben`,
    paragraphs: [
      `Hallo ${d.receiverName},`,
      `${d.senderName} möchte dir ${d.itemName} übergeben. Bitte nimm die Anfrage an oder lehne sie ab.`,
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

const contactMessage = (d: { name: string; email: string; subject: string; message: string }) => ({
  subject: `[Contact] ${d.subject} from ${d.name}`,
  preheader: d.message.slice(0, 80),
  heading: `New message: ${d.subject}`,
  paragraphs: [`From: ${d.name} <${d.email}>`, ...d.message.split(/\n{2,}/)],
})

export function finish(kind: string, lang: string, parts: { subject: string } & EmailParts): RenderedEmail {
  return { kind, subject: parts.subject, text: renderText(parts), html: renderHtml(lang, parts) }
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
  contactMessage: (d: { name: string; email: string; subject: string; message: string }) =>
    finish('contact-message', 'en', contactMessage(d)),
}

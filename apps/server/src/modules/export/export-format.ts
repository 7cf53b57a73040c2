import type { BlockContent, KeptNames, Side } from '@circles/ledger'
import type { Language, TActivityType } from '@circles/shared'

/**
 * The shape of `circles-data.json` in "Download my data" (docs/decisions/0038). Versioned: a field
 * is only ever added within a version; renaming or removing one makes the next version.
 */
export const DATA_EXPORT_VERSION = 1

interface Named {
  id: string
  /** '' for a person whose account was deleted. */
  name: string
}

export interface DataExport {
  format: 'circles-data'
  version: typeof DATA_EXPORT_VERSION
  /** When the file was made (ISO 8601, UTC). */
  exportedAt: string
  /** The account, without its password hash, session version or any token. */
  profile: {
    id: string
    name: string
    email: string
    emailVerified: boolean
    language: Language
    createdAt: string
    updatedAt: string
    /** 'avatar.webp' in the archive when the person has a profile picture. */
    avatar: string | null
    /** The IANA time zone the browser reported (issue 26), or null. */
    timeZone: string | null
  }
  noticePreferences: {
    handoverRequests: boolean
    handoverAnswers: boolean
    invitations: boolean
    /** Issue 26: loan reminders, asks to borrow, loan changes. */
    loanReminders: boolean
    borrowRequests: boolean
    loanChanges: boolean
  }
  /** Passkeys without their keys or credential ids. */
  passkeys: {
    name: string
    deviceType: 'singleDevice' | 'multiDevice'
    backedUp: boolean
    transports: string[]
    createdAt: string
    lastUsedAt: string | null
  }[]
  memberships: {
    circle: Named & { description: string | null }
    role: 'ADMIN' | 'MEMBER'
    joinedAt: string
  }[]
  /** Circles the person left or was removed from (the newest departure per circle). */
  formerMemberships: { circle: Named; reason: 'LEFT' | 'REMOVED'; departedAt: string }[]
  /** Items the person created or holds now. */
  items: {
    id: string
    name: string
    description: string | null
    circle: Named
    holder: Named
    ownership: 'COMPLETE' | 'PARTIAL'
    createdByYou: boolean
    heldByYou: boolean
    /** The picture's path in this archive (`pictures/<file>`), or null. */
    picture: string | null
    createdAt: string
    updatedAt: string
  }[]
  /** Every handover the person sent or received, with the texts of both sides and the secret message. */
  handovers: {
    id: string
    yourRole: 'SENDER' | 'RECEIVER'
    item: Named
    circle: Named
    sender: Named
    receiver: Named
    status: 'PENDING' | 'CONFIRMED' | 'REJECTED' | 'CANCELLED'
    completeOwnership: boolean
    requesterComment: string | null
    secretMessage: string | null
    receiverComment: string | null
    /**
     * Issue 28: each side's condition note and photos (paths in this archive, `condition-photos/<file>`:
     * the exact bytes whose SHA-256 the handover's block commits to), and the receiver's 'as described'.
     */
    condition: {
      sender: { note: string | null; photos: string[] }
      receiver: { note: string | null; photos: string[] }
      asDescribed: boolean
    }
    createdAt: string
    answeredAt: string | null
  }[]
  /**
   * The ledger blocks from or to the person, per circle: each as the ledger export
   * (GET /api/ledger/:circleId/export) gives it (id, height, hash, leaf = the hashed bytes, base64),
   * with its content decoded and its RFC 6962 audit path to the circle's newest signed checkpoint.
   */
  ledger: {
    /** The verifier keys the checkpoints are signed with (as GET /api/ledger/keys). */
    keys: string[]
    circles: {
      circleId: string
      origin: string
      /**
       * The newest signed checkpoint (C2SP signed note), or null when the log has none yet; since issue
       * 29 with the cosignature lines of members' devices and outside witnesses after its signature.
       */
      checkpoint: string | null
      /** Issue 29: the verifier keys of the cosigners on `checkpoint` (public keys; docs/decisions/0064). */
      cosigners: string[]
      size: number
      blocks: {
        id: string
        height: number
        hash: string
        /** The hashed bytes, base64; absent on a v1/v2 block whose names were redacted (they held them). */
        leaf?: string
        /** Which names of a v1/v2 block were redacted (issue 24, docs/decisions/0034). */
        redacted?: Side[]
        content: BlockContent
        /** v3: the names and salts kept beside the block, null where erased. */
        names?: KeptNames
        /** Hex hashes, leaf to root; null without a checkpoint. */
        inclusionProof: string[] | null
      }[]
    }[]
  }
  /**
   * Issue 26: every loan the person lent or borrowed, with the wishes for a later date and the
   * reminders sent to them about it (the borrower's, or the lender's overdue notice).
   */
  loans: {
    id: string
    yourRole: 'LENDER' | 'BORROWER'
    item: Named
    circle: Named
    lender: Named
    borrower: Named
    status: 'ACTIVE' | 'RETURNED'
    dueAt: string
    startedAt: string
    returnedAt: string | null
    /** Set when a party left or was removed from the circle: the item is to go back to its lender. */
    recalledAt: string | null
    recallReason: 'LEFT' | 'REMOVED' | null
    extensions: {
      id: string
      dueAt: string
      /** The borrower's message to the lender (null once erased). */
      message: string | null
      status: 'PENDING' | 'ACCEPTED' | 'DECLINED' | 'CANCELLED'
      createdAt: string
      answeredAt: string | null
    }[]
    /** `BEFORE_<offset>`, `OVERDUE_<n>` (to the borrower) or `LENDER_OVERDUE` (to the lender). */
    reminders: { kind: string; dueAt: string; sentAt: string | null }[]
  }[]
  /** Issue 26: the person's own asks to borrow, with the item's owner and the owner's answer. */
  borrowRequests: {
    id: string
    item: Named
    circle: Named
    owner: Named
    wishedFrom: string | null
    wishedUntil: string
    message: string | null
    status: 'WAITING' | 'OFFERED' | 'BORROWED' | 'DECLINED' | 'WITHDRAWN' | 'CLOSED'
    declineReason: string | null
    createdAt: string
    answeredAt: string | null
  }[]
  /** Issue 26: whether the person has a calendar feed URL, since when (the URL is a secret: not here). */
  calendarFeed: { createdAt: string } | null
  /**
   * Issue 29 (docs/decisions/0064): the witness keys the person's devices registered, public halves only
   * (a private key never leaves its device): the C2SP key name and verifier key, the device's label,
   * when it was registered and last cosigned, and the circles whose checkpoints it cosigned.
   */
  witnessKeys: {
    deviceId: string
    name: string
    verifierKey: string
    label: string | null
    createdAt: string
    lastCosignedAt: string | null
    cosignatureCount: number
    circles: (Named & { cosignatures: number })[]
  }[]
  /** The person's activity feed, oldest first. */
  activities: { id: string; type: TActivityType; title: string; data: unknown; createdAt: string }[]
}

const README_EN = `Circles: your data
==================

This archive holds what your Circles account stores about you, as of {date}
(GDPR Art. 20, right to data portability).

circles-data.json   Your data in JSON ("format": "circles-data", "version": 1):
                    - profile: your name, email, language, when you joined
                      (never your password or any token)
                    - noticePreferences: which emails you get
                    - passkeys: your passkeys' names, type and dates (never their keys)
                    - memberships and formerMemberships: your circles, your role, when you
                      joined or left
                    - items: the items you created or hold, with their circle and ownership
                    - handovers: every handover you sent or received, with the comments of both
                      sides, the secret message you wrote or that was meant for you, and the
                      condition notes and photos of both sides
                    - ledger: the ledger blocks about you, per circle, each with its hash, its
                      hashed bytes ("leaf", base64), its content and its audit path to the
                      circle's signed checkpoint, so anyone can check them with the keys in
                      "ledger.keys" (npx circles-ledger verify-data circles-data.json); each
                      checkpoint with the cosignatures of members' devices and witnesses, and
                      their public keys in "cosigners" (verify-data reports them too)
                    - loans: the loans you lent or borrowed, with the wishes for a later
                      date and the reminders sent to you about them
                    - borrowRequests: your asks to borrow, with the owner's answer
                    - calendarFeed: since when you have a calendar feed (not its secret URL)
                    - witnessKeys: your devices' witness keys (public keys only), with the
                      device's name, when each was registered and last cosigned, and the
                      circles it cosigned
                    - activities: your activity feed
pictures/           The pictures of your items; each item's "picture" names its file.
condition-photos/   The condition photos of your handovers; each handover's "condition" names
                    them (npx circles-ledger check-photo shows the block that records one).
avatar.webp         Your profile picture, if you have one.
README.txt          This file.
`

const README_DE = `Circles: deine Daten
====================

Dieses Archiv enthält, was dein Circles-Konto über dich speichert, Stand {date}
(DSGVO Art. 20, Recht auf Datenübertragbarkeit).

circles-data.json   Deine Daten als JSON ("format": "circles-data", "version": 1):
                    - profile: dein Name, deine E-Mail, deine Sprache, seit wann du dabei bist
                      (nie dein Passwort oder ein Token)
                    - noticePreferences: welche E-Mails du bekommst
                    - passkeys: Namen, Art und Daten deiner Passkeys (nie ihre Schlüssel)
                    - memberships und formerMemberships: deine Kreise, deine Rolle, wann du
                      beigetreten oder gegangen bist
                    - items: die Gegenstände, die du angelegt hast oder hältst, mit Kreis und
                      Eigentum
                    - handovers: jede Übergabe, die du gesendet oder erhalten hast, mit den
                      Kommentaren beider Seiten, der geheimen Nachricht, die du geschrieben
                      hast oder die für dich bestimmt war, und den Zustandsnotizen und -fotos
                      beider Seiten
                    - ledger: die Blöcke des Ledgers über dich, je Kreis, jeweils mit Hash,
                      gehashten Bytes ("leaf", Base64), Inhalt und Prüfpfad zum signierten
                      Checkpoint des Kreises, prüfbar mit den Schlüsseln in "ledger.keys"
                      (npx circles-ledger verify-data circles-data.json); jeder Checkpoint mit
                      den Gegensignaturen der Geräte der Mitglieder und der Zeugen, deren
                      öffentliche Schlüssel in "cosigners" (verify-data prüft auch sie)
                    - loans: die Ausleihen, bei denen du verliehen oder geliehen hast, mit den
                      Wünschen nach einem späteren Datum und den Erinnerungen an dich
                    - borrowRequests: deine Anfragen zum Ausleihen, mit der Antwort des Besitzers
                    - calendarFeed: seit wann du einen Kalender-Feed hast (nicht seine geheime URL)
                    - witnessKeys: die Zeugenschlüssel deiner Geräte (nur öffentliche Schlüssel),
                      mit dem Namen des Geräts, wann er registriert wurde und zuletzt
                      gegengezeichnet hat, und den Kreisen, die er gegengezeichnet hat
                    - activities: dein Aktivitätsverlauf
pictures/           Die Bilder deiner Gegenstände; "picture" nennt die Datei des Gegenstands.
condition-photos/   Die Zustandsfotos deiner Übergaben; "condition" der Übergabe nennt sie
                    (npx circles-ledger check-photo zeigt den Block, der eines festhält).
avatar.webp         Dein Profilbild, wenn du eines hast.
README.txt          Diese Datei.
`

/** The archive's README: English, and German after it for a German account. */
export function readme(language: Language, now: Date): string {
  const date = now.toISOString().slice(0, 10)
  const en = README_EN.replace('{date}', date)
  return language === 'de' ? `${README_DE.replace('{date}', date)}\n\n${en}` : en
}

import { PassThrough, Readable } from 'node:stream'
import { addSignatureLines, blockBytes, merkleTree } from '@circles/ledger'
import { MESSAGES, type TUser } from '@circles/shared'
import yazl from 'yazl'
import type { AppContext } from '../../context'
import { unauthorized } from '../../lib/errors'
import type { LedgerSigner } from '../../lib/ledger-signer'
import type { FileStore } from '../../lib/storage'
import { avatarFileName, storedNames } from '../../lib/images'
import { leafHashes, storedBlockOf } from '../ledger/ledger.service'
import { cosignaturesOfLog, cosignerKeys, witnessKeysOfAccount } from '../ledger/cosigners'
import { logOrigin } from '../ledger/log-origin'
import * as repo from './export.repository'
import { DATA_EXPORT_VERSION, type DataExport, readme } from './export-format'

/** Where an item's picture goes in the archive. */
const PICTURES = 'pictures/'
/** Where a handover's condition photos go (issue 28, docs/decisions/0057). */
const CONDITION_PHOTOS = 'condition-photos/'
/** Where the profile picture goes (docs/decisions/0037). */
const AVATAR = 'avatar.webp'

export interface DataExportDownload {
  fileName: string
  /** The ZIP file as it is written: pictures are read from the store one at a time. */
  stream: Readable
}

const iso = (date: Date | null) => (date ? date.toISOString() : null)
const hexToBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))

/**
 * "Download my data" (GDPR Art. 20, docs/decisions/0038): everything the person's account holds, as
 * `circles-data.json` (export-format.ts), the pictures of their items and a README, in one ZIP file.
 */
export function createExportService(ctx: AppContext, store: FileStore, signer: LedgerSigner) {
  /** The JSON document and the pictures it names, read in one snapshot. */
  async function collect(actor: TUser, now: Date) {
    return ctx.db.transaction(
      async (tx) => {
        const user = await repo.profileOf(tx, actor.id)
        if (!user) throw unauthorized()
        // One after another: a transaction is one connection.
        const passkeys = await repo.passkeysOf(tx, actor.id)
        const memberships = await repo.membershipsOf(tx, actor.id)
        const departures = await repo.departuresOf(tx, actor.id)
        const itemRows = await repo.itemsOf(tx, actor.id)
        const handoverRows = await repo.handoversOf(tx, actor.id)
        const photoRows = await repo.conditionPhotosOf(
          tx,
          handoverRows.map((row) => row.handover.id),
        )
        const activityRows = await repo.activitiesOf(tx, actor.id)
        const heads = await repo.headsWithBlocksAbout(tx, actor.id)
        const loanRows = await repo.loansOf(tx, actor.id)
        const extensionRows = await repo.extensionsOf(
          tx,
          loanRows.map((row) => row.loan.id),
        )
        const reminderRows = await repo.remindersOf(tx, actor.id)
        const askRows = await repo.borrowRequestsOf(tx, actor.id)
        const calendarFeed = await repo.calendarFeedOf(tx, actor.id)
        const witnessKeys = await witnessKeysOfAccount(tx, actor.id)

        // Files of the archive: stored name and path in the ZIP.
        const pictures: { stored: string; path: string }[] = []
        const avatar = user.avatarId ? { stored: avatarFileName(user.avatarId), path: AVATAR } : null
        if (avatar) pictures.push(avatar)
        const items = itemRows.map(({ item, circleName, holderName }) => {
          let picture: string | null = null
          if (item.imageId && item.imageType) {
            const [full] = storedNames(item.imageId, item.imageType)
            picture = `${PICTURES}${full}`
            pictures.push({ stored: full, path: picture })
          }
          return {
            id: item.id,
            name: item.name,
            description: item.description,
            circle: { id: item.circleId, name: circleName },
            holder: { id: item.ownerId, name: holderName },
            ownership: item.ownership,
            createdByYou: item.createdById === actor.id,
            heldByYou: item.ownerId === actor.id,
            picture,
            createdAt: item.createdAt.toISOString(),
            updatedAt: item.updatedAt.toISOString(),
          }
        })

        // Each handover's condition photos (both sides: the person was a party), as files of the archive.
        const photosBySide = new Map<string, string[]>()
        for (const photo of photoRows) {
          const [full] = storedNames(photo.imageId, photo.imageType)
          const key = `${photo.handoverId}:${photo.side}`
          photosBySide.set(key, [...(photosBySide.get(key) ?? []), `${CONDITION_PHOTOS}${full}`])
          pictures.push({ stored: full, path: `${CONDITION_PHOTOS}${full}` })
        }
        const conditionOf = (h: (typeof handoverRows)[number]['handover']) => ({
          sender: { note: h.senderNote, photos: photosBySide.get(`${h.id}:sender`) ?? [] },
          receiver: { note: h.receiverNote, photos: photosBySide.get(`${h.id}:receiver`) ?? [] },
          asDescribed: h.receiverAsDescribed,
        })

        const ledgerCircles = []
        for (const head of heads) {
          const rows = await repo.blocksAbout(tx, actor.id, head.circleId, head.size)
          if (rows.length === 0) continue
          // Audit paths against the newest signed checkpoint, from one read of the circle's leaves.
          const tree = head.checkpoint
            ? merkleTree((await leafHashes(tx, head.circleId, head.size)).map(hexToBytes))
            : null
          // Issue 29: the checkpoint with its cosignatures and the cosigners' keys (docs/decisions/0064).
          const cosignatures = head.checkpoint
            ? await cosignaturesOfLog(tx, head.circleId, head.size, head.size)
            : []
          ledgerCircles.push({
            circleId: head.circleId,
            origin: logOrigin(ctx.config.ledgerOrigin, head.circleId, head.checkpoint),
            checkpoint: head.checkpoint
              ? addSignatureLines(
                  head.checkpoint,
                  cosignatures.map((c) => c.line),
                )
              : null,
            cosigners: cosignerKeys(cosignatures, ctx.config.ledgerWitnesses.witnesses),
            size: head.size,
            blocks: rows.map((row) => {
              // As the ledger serves it: v3 with the names kept beside it (null once erased); a v1/v2
              // block whose names were redacted without its bytes, which held them (docs/decisions/0034).
              const { content, names, redacted } = storedBlockOf(row)
              return {
                id: row.id,
                height: row.height,
                hash: row.hash,
                ...(redacted ? { redacted } : { leaf: Buffer.from(blockBytes(content)).toString('base64') }),
                content,
                ...(names ? { names } : {}),
                inclusionProof: tree
                  ? tree.inclusionProof(row.height).map((h) => Buffer.from(h).toString('hex'))
                  : null,
              }
            }),
          })
        }

        const document: DataExport = {
          format: 'circles-data',
          version: DATA_EXPORT_VERSION,
          exportedAt: now.toISOString(),
          profile: {
            id: user.id,
            name: user.name,
            email: user.email,
            emailVerified: user.emailVerified,
            language: user.language,
            createdAt: user.createdAt.toISOString(),
            updatedAt: user.updatedAt.toISOString(),
            avatar: avatar ? AVATAR : null,
            timeZone: user.timeZone,
          },
          noticePreferences: {
            handoverRequests: user.notifyHandoverRequests,
            handoverAnswers: user.notifyHandoverAnswers,
            invitations: user.notifyInvitations,
            loanReminders: user.notifyLoanReminders,
            borrowRequests: user.notifyBorrowRequests,
            loanChanges: user.notifyLoanChanges,
          },
          passkeys: passkeys.map((p) => ({
            name: p.name,
            deviceType: p.deviceType,
            backedUp: p.backedUp,
            transports: p.transports,
            createdAt: p.createdAt.toISOString(),
            lastUsedAt: iso(p.lastUsedAt),
          })),
          memberships: memberships.map((m) => ({
            circle: { id: m.circleId, name: m.circleName, description: m.description },
            role: m.adminId === actor.id ? 'ADMIN' : 'MEMBER',
            joinedAt: m.joinedAt.toISOString(),
          })),
          formerMemberships: departures.map((d) => ({
            circle: { id: d.circleId, name: d.circleName },
            reason: d.reason,
            departedAt: d.departedAt.toISOString(),
          })),
          items,
          handovers: handoverRows.map(({ handover: h, ...names }) => ({
            id: h.id,
            yourRole: h.senderId === actor.id ? 'SENDER' : 'RECEIVER',
            item: { id: h.itemId, name: names.itemName },
            circle: { id: h.circleId, name: names.circleName },
            sender: { id: h.senderId, name: names.senderName },
            receiver: { id: h.receiverId, name: names.receiverName },
            status: h.status,
            completeOwnership: h.completeOwnership,
            requesterComment: h.requesterComment,
            // Only handovers the person is a party to are read, so the secret is theirs to see:
            // written by them as the sender, or meant for them as the receiver.
            secretMessage: h.secretMessage,
            condition: conditionOf(h),
            receiverComment: h.receiverComment,
            createdAt: h.createdAt.toISOString(),
            answeredAt: iso(h.answeredAt),
          })),
          ledger: { keys: signer.verifierKeys, circles: ledgerCircles },
          loans: loanRows.map(({ loan, ...names }) => ({
            id: loan.id,
            yourRole: loan.lenderId === actor.id ? 'LENDER' : 'BORROWER',
            item: { id: loan.itemId, name: names.itemName },
            circle: { id: loan.circleId, name: names.circleName },
            lender: { id: loan.lenderId, name: names.lenderName },
            borrower: { id: loan.borrowerId, name: names.borrowerName },
            status: loan.status,
            dueAt: loan.dueAt.toISOString(),
            startedAt: loan.startedAt.toISOString(),
            returnedAt: iso(loan.returnedAt),
            recalledAt: iso(loan.recalledAt),
            recallReason: loan.recallReason,
            extensions: extensionRows
              .filter((e) => e.loanId === loan.id)
              .map((e) => ({
                id: e.id,
                dueAt: e.dueAt.toISOString(),
                message: e.message,
                status: e.status,
                createdAt: e.createdAt.toISOString(),
                answeredAt: iso(e.answeredAt),
              })),
            reminders: reminderRows
              .filter((r) => r.loanId === loan.id)
              .map((r) => ({ kind: r.kind, dueAt: r.dueAt.toISOString(), sentAt: iso(r.sentAt) })),
          })),
          borrowRequests: askRows.map(({ request: r, ...names }) => ({
            id: r.id,
            item: { id: r.itemId, name: names.itemName },
            circle: { id: r.circleId, name: names.circleName },
            owner: { id: names.ownerId, name: names.ownerName },
            wishedFrom: iso(r.wishedFrom),
            wishedUntil: r.wishedUntil.toISOString(),
            message: r.message,
            status: r.status,
            declineReason: r.declineReason,
            createdAt: r.createdAt.toISOString(),
            answeredAt: iso(r.answeredAt),
          })),
          calendarFeed: calendarFeed ? { createdAt: calendarFeed.createdAt.toISOString() } : null,
          // Issue 29: the devices' witness keys, public halves only (the private keys never leave them).
          witnessKeys,
          activities: activityRows.map((a) => ({
            id: a.id,
            type: a.type,
            title: a.title,
            data: a.data,
            createdAt: a.createdAt.toISOString(),
          })),
        }
        const unique = [...new Map(pictures.map((p) => [p.path, p])).values()]
        return { document, pictures: unique, language: user.language }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    )
  }

  /**
   * The person's archive. Checks come first: the session (the route's), then the limit of a few
   * exports an hour (each reads every table and every picture of the account); then the reads. The
   * ZIP streams: README first, the pictures one at a time as the client takes them, the JSON last.
   */
  async function download(actor: TUser, signal: AbortSignal): Promise<DataExportDownload> {
    await ctx.rateLimits.consume([['dataExportsPerAccount', actor.id]], MESSAGES.dataExportTooMany)
    const now = new Date()
    const { document, pictures, language } = await collect(actor, now)

    const zip = new yazl.ZipFile()
    const output = new PassThrough()
    zip.outputStream.pipe(output)
    zip.on('error', (error: Error) => output.destroy(error))
    const mtime = now
    zip.addBuffer(Buffer.from(readme(language, now), 'utf8'), 'README.txt', { mtime })

    void (async () => {
      const missing: string[] = []
      for (const { stored, path } of pictures) {
        if (signal.aborted) return
        const file = await store.get(stored)
        if (!file) {
          missing.push(path)
          continue
        }
        // Added once the archive is ready for it, so at most this picture and the one being written
        // are in memory; already compressed, so stored as they are.
        await new Promise<void>((resolve) => {
          if (signal.aborted) return resolve()
          const onAbort = () => resolve()
          signal.addEventListener('abort', onAbort, { once: true })
          zip.addReadStreamLazy(path, { mtime, compress: false }, (give) => {
            signal.removeEventListener('abort', onAbort)
            give(null, Readable.from([file.bytes]))
            resolve()
          })
        })
      }
      if (signal.aborted) return
      // A picture the store no longer has is named as such rather than left as a broken reference.
      for (const item of document.items)
        if (item.picture && missing.includes(item.picture)) item.picture = null
      if (missing.includes(AVATAR)) document.profile.avatar = null
      zip.addBuffer(Buffer.from(`${JSON.stringify(document, null, 2)}\n`, 'utf8'), 'circles-data.json', {
        mtime,
      })
      zip.end()
    })().catch((error: unknown) => {
      // The error's message only: a query or file name may carry personal data (docs/decisions/0023).
      ctx.log.error({ err: error }, 'data export failed while streaming')
      output.destroy(error instanceof Error ? error : new Error('data export failed'))
    })

    return { fileName: `circles-data-${now.toISOString().slice(0, 10)}.zip`, stream: output }
  }

  return { download }
}

export type ExportService = ReturnType<typeof createExportService>

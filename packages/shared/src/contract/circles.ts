import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { named, requiredString, zEmail, zText } from './common'

/** Spec 001 §3: the admin is the circle's `adminId`; every other member has the role MEMBER. */
export const CIRCLE_ROLES = ['ADMIN', 'MEMBER'] as const
export const ZCircleRole = z.enum(CIRCLE_ROLES)
export type TCircleRole = z.infer<typeof ZCircleRole>

export const INVITATION_TYPES = ['email', 'qr'] as const
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'CANCELLED', 'EXPIRED'] as const
export const ZInvitationStatus = z.enum(INVITATION_STATUSES)

export const ZCircleIdParams = z.object({ id: z.uuid({ error: MESSAGES.notFound }) })
export const ZCircleMemberParams = z.object({
  id: z.uuid({ error: MESSAGES.notFound }),
  userId: z.uuid({ error: MESSAGES.invalidUserId }),
})
export const ZCircleInvitationParams = z.object({
  id: z.uuid({ error: MESSAGES.notFound }),
  invId: z.uuid({ error: MESSAGES.notFound }),
})
export const ZInvitationTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(256)) })

export const ZCircle = named(
  z.object({
    id: z.uuid(),
    name: z.string(),
    description: z.nullable(z.string()),
    adminId: z.uuid(),
    createdAt: z.iso.datetime(),
    memberCount: z.number().check(z.int()),
  }),
  'Circle',
)
export type TCircle = z.infer<typeof ZCircle>

/** GET /circles: one entry per membership (spec 000 §5 "circle summary in lists"). */
export const ZCircleListEntry = z.object({
  id: z.uuid(),
  role: ZCircleRole,
  joinedAt: z.iso.datetime(),
  circle: ZCircle,
})
export type TCircleListEntry = z.infer<typeof ZCircleListEntry>
export const ZCircleListResponse = z.object({ circles: z.array(ZCircleListEntry) })

export const ZCircleMember = named(
  z.object({
    id: z.uuid(),
    role: ZCircleRole,
    userId: z.uuid(),
    joinedAt: z.iso.datetime(),
    user: z.object({
      id: z.uuid(),
      name: z.string(),
      email: z.string(),
      /** The member's avatar (docs/decisions/0037); null or absent = initials. */
      avatarUrl: z.optional(z.nullable(z.string())),
    }),
  }),
  'CircleMember',
)
export type TCircleMember = z.infer<typeof ZCircleMember>

/** An item as the circle page lists it: every item of the circle; the page shows the first 6. */
export const ZCircleItem = z.object({
  id: z.uuid(),
  name: z.string(),
  description: z.nullable(z.string()),
  imageUrl: z.nullable(z.string()),
  thumbnailUrl: z.nullable(z.string()),
  ownerId: z.uuid(),
  hasPendingHandover: z.boolean(),
})
export type TCircleItem = z.infer<typeof ZCircleItem>

export const ZCircleDetail = named(
  z.extend(ZCircle, {
    items: z.array(ZCircleItem),
    users: z.array(ZCircleMember),
  }),
  'CircleDetail',
)
export type TCircleDetail = z.infer<typeof ZCircleDetail>
export const ZCircleDetailResponse = z.object({ circle: ZCircleDetail })

/** Create and edit: the name is required (min 3), the description optional (empty = none). */
export const ZCircleForm = z.pipe(
  z.object({ name: requiredString(), description: z.optional(z.string()) }),
  z.object({
    name: zText().check(
      z.minLength(LIMITS.circleNameMin, MESSAGES.circleNameMin),
      z.maxLength(LIMITS.circleNameMax, MESSAGES.circleNameMax),
    ),
    description: z.pipe(
      z.optional(
        zText({ multiline: true }).check(
          z.maxLength(LIMITS.circleDescriptionMax, MESSAGES.circleDescriptionMax),
        ),
      ),
      z.transform((v) => (v ? v : undefined)),
    ),
  }),
)
export type TCircleForm = z.input<typeof ZCircleForm>
export type TCircleInput = z.output<typeof ZCircleForm>
export const ZCircleResponse = z.object({ circle: ZCircle, message: z.optional(z.string()) })

/** Invite by email and QR invitations: the email is required, and must look like one. */
export const ZInviteRequest = z.pipe(
  z.object({ email: requiredString(MESSAGES.emailRequired) }),
  z.object({ email: zEmail() }),
)
export type TInviteRequest = z.input<typeof ZInviteRequest>

export const ZInvitation = named(
  z.object({
    id: z.uuid(),
    email: z.string(),
    type: z.enum(INVITATION_TYPES),
    status: ZInvitationStatus,
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  }),
  'Invitation',
)
export type TInvitation = z.infer<typeof ZInvitation>

export const ZInvitationResponse = z.object({ invitation: ZInvitation, message: z.string() })
/** Only the QR call returns the token: the admin shows it; an email invitation's token goes by email. */
export const ZQrInvitationResponse = z.object({
  invitation: z.extend(ZInvitation, { token: z.string() }),
  message: z.string(),
})
export const ZInvitationListResponse = z.object({ invitations: z.array(ZInvitation) })

/** GET /circles/invitations/:token/verify: what the invitee sees before accepting. */
export const ZInvitationPreview = z.extend(ZInvitation, {
  circleId: z.uuid(),
  circleName: z.string(),
  /** The admin who invited; spec 000 §5 falls back to 'Administrator'. */
  name: z.nullable(z.string()),
})
export type TInvitationPreview = z.infer<typeof ZInvitationPreview>
export const ZVerifyInvitationResponse = z.object({ invitation: ZInvitationPreview })

export const ZAcceptInvitationResponse = z.object({
  success: z.boolean(),
  circle: z.object({ id: z.uuid(), name: z.string() }),
  alreadyMember: z.boolean(),
  message: z.string(),
})
export type TAcceptInvitationResponse = z.infer<typeof ZAcceptInvitationResponse>

export const ZTransferOwnershipRequest = z.object({ userId: z.uuid({ error: MESSAGES.invalidUserId }) })

/**
 * User-facing texts fixed by the spec, word for word. The server answers with these (English) and a code;
 * the web app translates by key, so a German screen never shows them in English.
 */
export const MESSAGES = {
  required: 'Please fill in all required fields',
  fieldRequired: 'This field is required',
  invalidEmail: 'Please enter a valid email address',
  invalidEmailShort: 'Invalid email address',
  emailRequired: 'Email is required',
  passwordMin: 'Password must be at least 8 characters',
  nameMin: 'Name must be at least 2 characters',
  passwordsDontMatch: "Passwords don't match",
  invitationEmailMismatch: 'Please use the email address that received the invitation',
  resetBothRequired: 'Both password fields are required',
  resetPasswordMin: 'Password must be at least 8 characters long',
  resetPasswordsDoNotMatch: 'Passwords do not match',
  resetTokenInvalid: 'Invalid reset token',
  resetLinkInvalid:
    'This password reset link is invalid or has expired. Please request a new password reset.',
  resetSuccess: 'Your password has been reset successfully.',
  resetRequested: 'If this email exists in our system, you will receive a password reset link shortly.',
  subjectRequired: 'Subject is required',
  messageMin: 'Message must be at least 10 characters',
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Your email is not verified. Please verify your email before logging in.',
  userExists: 'An account with this email already exists. Please log in instead.',
  invalidInvitation: 'Invalid or expired invitation. Please request a new one.',
  registrationNeedsVerification: 'Registration successful. Please check your email to verify your account.',
  registrationSuccess: 'Registration successful.',
  emailVerified: 'Email verified successfully',
  emailAlreadyVerified: 'Email already verified',
  verificationTokenInvalid: 'Invalid or expired verification token. Please request a new verification email.',
  tooManyVerifications: 'Too many verification attempts. Please try again later.',
  tooManyVerificationRequests: 'Too many verification requests. Please wait before trying again.',
  verificationSent: 'Verification email sent!',
  tooManyRequests: 'Too many requests. Please try again later.',
  requestTimeout: 'The request arrived too slowly and was cut off. Please try again.',
  tooManySockets:
    'Too many open connections for this account. Close some tabs or sign out on other devices, then reload.',
  tokenExpired: 'Authentication token has expired. Please log in again.',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  somethingWentWrong: 'Something went wrong',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again in a moment.',
  invalidJson: 'The request body is not valid JSON.',
  invalidUrl: 'The request address is not valid.',
  invalidCharacters: 'This text contains characters that are not allowed, such as control characters.',
  payloadTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'Unsupported content type.',
  contactSent: 'Thank you for your message. We will get back to you soon.',
  profileUpdated: 'Profile updated',
  invalidUserId: 'Invalid user ID',
  anErrorOccurred: 'An error occurred',
  circleNameMin: 'Circle name must be at least 3 characters',
  circleNameMax: 'Circle name must be at most 100 characters',
  circleDescriptionMax: 'Description must be at most 1000 characters',
  circleCreated: 'Circle created',
  circleUpdated: 'Circle updated',
  invitationSent: 'Invitation sent',
  invitationResent: 'Invitation sent again',
  invitationCancelled: 'Invitation cancelled',
  qrGenerated: 'QR code generated successfully!',
  qrFailed: 'Failed to generate QR code',
  linkCopied: 'Invitation link copied to clipboard!',
  linkCopyFailed: 'Failed to copy link to clipboard',
  memberRemoved: 'Member removed',
  ownershipTransferred: 'Ownership transferred',
  leftCircle: 'You left the circle',
  alreadyMember: 'This person is already a member of this circle.',
  notAMember: 'This user is not a member of this circle.',
  cannotRemoveSelf: 'You cannot remove yourself from the circle.',
  alreadyAdmin: 'This member is already the admin.',
  adminMustTransfer: 'Transfer ownership to another member before leaving the circle.',
  circleLimitReached:
    'The Personal plan allows up to 2 circles that you administer. Contact us about Enterprise for more.',
  memberLimitReached:
    'This circle has reached the Personal plan limit of 11 members. Contact us about Enterprise for more.',
  invitationInvalid: 'Invalid or expired invitation',
  invitationAlreadyAccepted:
    'This invitation has already been accepted. Please contact the circle admin if you need assistance.',
  invitationExpired: 'This invitation has expired. Please request a new one from the circle admin.',
  invitationNotFound: 'Invitation not found. Please check the URL or request a new invitation.',
  invitationVerifyFailed: 'Failed to verify invitation',
  invitationAcceptFailed: 'Failed to accept invitation',
  invitationTokenMissing: 'Missing invitation token',
  invitationTokenNotFound: 'No invitation token found',
  joinedCircle: 'Successfully joined circle',
  alreadyMemberWelcome: 'Welcome back! You are already a member',
  // Items, pictures and uploads (spec 001 §5, §8).
  itemNameRequired: 'Item name is required',
  itemNameMax: 'Item name must be at most 100 characters',
  itemDescriptionMax: 'Description must be at most 2000 characters',
  itemCreated: 'Item created',
  itemUpdated: 'Item updated',
  itemDeleted: 'Item deleted',
  itemLocked: 'This item cannot be edited because it has been handed over to another user.',
  itemPendingHandover: 'This item has a pending handover and cannot be changed until it is answered.',
  itemNotInCircle: 'You are no longer a member of this circle.',
  itemDeleteNeedsCompleteOwnership: 'Cannot delete this item. You do not have complete ownership.',
  itemEditForbidden: 'Only the owner or the circle admin can edit this item.',
  // Item search (issue 23, docs/decisions/0031): the 400 answers of GET /items?… and /items/circle/:id?…
  itemSearchTextMax: 'Search text must be at most 100 characters',
  itemSearchBadText: 'Search text must be given once, as plain text',
  itemSearchBadCircle: 'The circle filter must be the id of one of your circles',
  itemSearchBadHolder: "The holder filter must be 'me' or a member's id",
  itemSearchBadState: 'The state filter must be one of: available, pending, on-loan, handed-over',
  itemSearchBadSort: 'The sort must be one of: newest, name, recent-handover',
  itemSearchBadLimit: 'The limit must be a whole number from 1 to 100',
  itemSearchBadOffset: 'The offset must be a whole number from 0 to 100000',
  itemLimitReached:
    'The Personal plan allows up to 10 items that you hold. Contact us about Enterprise for more.',
  invalidImageType: 'Invalid file type. Please upload a JPEG, PNG, or WebP image.',
  imageTooLarge: 'File is too large. Maximum size is 5MB.',
  imageZeroSize: 'Invalid file: zero size',
  noFileToUpload: 'No file to upload',
  imageNotFromThisItem: 'This picture does not belong to this item.',
  imageProcessingFailed: 'Failed to process image. Please try a different image.',
  // Handovers (spec 001 §4, §5, §8).
  handoverNotFound: 'Handover not found',
  handoverTextMax: 'Comments and the secret message must be at most 1000 characters',
  ledgerNoSuchTile: 'This tile is not part of the ledger.',
  // Condition evidence (issue 28).
  conditionTooManyPhotos: 'At most 4 photos per side of a handover.',
  conditionNoteMax: 'The condition note can be at most 1000 characters.',
  conditionPhotoNotFound: 'A photo is no longer available. Please add it again.',
  conditionAsDescribedWithOwn: 'Accept the item as described, or add your own photos and note, not both.',
  conditionNothingDescribed:
    'There is nothing to accept as described: the sender attached no photos or note.',
  conditionNotForRecordedReturn:
    'A return you record alone has nobody to confirm it, so it carries no condition photos or note. Describe the condition in the comment.',
  handoverCreated: 'Handover request sent',
  handoverConfirmed: 'Handover confirmed successfully',
  handoverRejected: 'Handover rejected successfully',
  handoverCancelled: 'Handover request cancelled',
  handoverOnlyOwner: 'Only the owner of this item can hand it over.',
  handoverAlreadyTransferred:
    'This item cannot be transferred as it has already been involved in a confirmed handover.',
  handoverItemIsolated: 'This item is no longer part of its circle and cannot be handed over.',
  handoverToSelf: 'You cannot hand an item over to yourself.',
  handoverReceiverNotMember: 'The receiver must be a member of this circle.',
  handoverPendingExists: 'This item already has a pending handover.',
  handoverCompleteNeedsComplete: 'Only a holder with complete ownership can pass on complete ownership.',
  handoverOnlyReceiver: 'Only the receiver can accept or reject this handover.',
  handoverOnlySender: 'Only the sender can cancel this handover request.',
  handoverAlreadyAnswered: 'This handover has already been answered.',
  handoverAlreadyCancelled: 'This handover request has been cancelled.',
  handoverPartyLeft: 'This handover can no longer be confirmed: a party has left the circle.',
  // Ledger (spec 001 §4, §8).
  blockNotFound: 'Block not found',
  ledgerValid: 'The ledger is intact: every block checks out.',
  ledgerCompromised: 'The ledger has been tampered with: some blocks do not check out.',
  ledgerBadProofRange: 'No proof for these sizes: they must lie within the ledger.',
  ledgerNoSuchCheckpoint: 'There is no signed checkpoint of this size.',
  ledgerNotSignedYet: 'This ledger has no signed checkpoint yet; it gets one with its next entry.',
  // Issue 29: members' devices as witnesses (docs/decisions/0059).
  witnessKeyInvalid: 'This is not an Ed25519 public key a witness can use.',
  witnessKeyTaken: 'This witness key is registered already.',
  /** No longer answered (docs/decisions/0064: a new device replaces the one unused longest); kept for older clients. */
  witnessKeyLimit: 'An account can have at most 10 witness devices. Remove one first.',
  witnessKeyNotFound: 'This device has no witness key.',
  cosignatureMalformed: 'This is not an Ed25519 cosignature line (C2SP cosignature/v1).',
  cosignatureUnknownKey: 'This cosignature is not made with a witness key of your account.',
  cosignatureWrongCheckpoint: 'This is not the checkpoint the server signed for this circle at that size.',
  cosignatureInvalid: 'The cosignature does not verify over this checkpoint.',
  cosignatureFromFuture: 'The time of this cosignature is in the future.',
  // Dashboard and the real-time socket (spec 000 §4, §8).
  dashboardEmailNotVerified: 'Email not verified. Please verify your email before accessing the dashboard.',
  dashboardLoadFailed: 'Failed to load dashboard data',
  realtimeUnavailable: 'Unable to establish real-time connection',
  websocketError: 'WebSocket error occurred',
  // Passkeys and the profile (spec 000 §8, spec 001 §8).
  passkeyNoCredentials:
    "You haven't registered any passkeys yet. Please log in with your password and register a passkey in your profile settings.",
  passkeyAuthenticationFailed: 'Passkey authentication failed',
  passkeyRegistrationFailed: 'Failed to register passkey',
  passkeyRegistered: 'Passkey registered successfully',
  passkeyDeleted: 'Passkey deleted',
  passkeyNotFound: 'Passkey not found',
  // Issue 24: named passkeys (ADR 0036).
  passkeyRenamed: 'Passkey renamed',
  passkeyNameRequired: 'Please enter a name for the passkey',
  passkeyNameTooLong: 'A passkey name can have at most 60 characters',
  noticesUpdated: 'Your email preferences have been saved.',
  unsubscribed: 'You will no longer receive these emails.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid.',
  // Issue 27: push notices (docs/decisions/0053).
  pushEndpointRefused: 'This push service address is not accepted.',
  // Issue 23: a former member opens a page of the circle (answered 403 NO_LONGER_MEMBER).
  removedFromCircle: 'You were removed from this circle by its admin.',
  leftThisCircle: 'You left this circle.',
  // Error answers that had no key of their own (issue 23, docs/decisions/0032-error-message-keys.md).
  invalidInput: 'The request contains a value that is not valid.',
  requestHeadersTooLarge: 'The request headers are too large.',
  malformedRequest: 'The request is malformed.',
  realtimeServiceUnavailable: 'Service unavailable',
  // Change password (issue 24, docs/decisions/0039-change-password.md).
  currentPasswordRequired: 'Please enter your current password',
  currentPasswordWrong: 'Your current password is not correct',
  passwordSameAsCurrent: 'The new password must be different from your current password',
  noPasswordToChange:
    'This account has no password yet. Use "Forgot password" on the sign-in page to set one.',
  passwordChanged: 'Your password has been changed. You were signed out everywhere else.',
  // Issue 24: "Download my data" (docs/decisions/0038).
  dataExportTooMany: 'You can download your data 3 times an hour. Please try again later.',
  // Avatar picture (issue 24, docs/decisions/0037).
  avatarUpdated: 'Profile picture updated',
  avatarRemoved: 'Profile picture removed',
  // Issue 24: deleting one's own account (docs/decisions/0035).
  deleteAccountWrongPassword: 'The password is not correct. Your account has not been deleted.',
  deleteAccountPasskeyFailed:
    'The passkey did not confirm that it is you. Your account has not been deleted.',
  deleteAccountConfirmRequired: 'Enter your password or use a passkey to delete your account.',
  accountDeleted: 'Your account has been deleted.',
  // Lending (issue 26, docs/decisions/0047). Each helper adds its own block of keys below this one.
  loanNotFound: 'Loan not found',
  loanMessageMax: 'Messages must be at most 1000 characters',
  loanDueAtInvalid: 'Please choose a valid return date',
  loanDueAtPast: 'The return date must be in the future',
  borrowRequestNotFound: 'Request to borrow not found',
  // h-borrow: ask to borrow and the waiting list (docs/decisions/0048).
  borrowRequestCreated: 'You asked to borrow this item. The owner will answer.',
  borrowRequestAccepted: 'A loan request went to the person who asked.',
  borrowRequestDeclined: 'You declined the request to borrow.',
  borrowRequestWithdrawn: 'You withdrew your request to borrow.',
  borrowRequestExists: 'You have already asked to borrow this item. Withdraw that request to ask again.',
  borrowOwnItem: 'You cannot ask to borrow your own item.',
  borrowItemIsolated: 'Its owner has left the circle, so this item cannot be borrowed.',
  borrowItemNotLendable: 'Only an item its holder owns completely can be lent.',
  borrowAlreadyBorrowing: 'You are borrowing this item already.',
  borrowWishedUntilPast: 'The end of the wished period must be in the future',
  borrowWishedOrder: 'The end of the wished period must be after its start',
  borrowOnlyOwner: 'Only the owner of the item can answer a request to borrow it.',
  borrowOnlyAsker: 'Only the person who asked can withdraw a request to borrow.',
  borrowRequestClosed: 'This request to borrow is no longer open.',
  borrowRequestNotWaiting:
    'This request has already been answered: a loan request went to the person who asked.',
  borrowItemOnLoan: 'The item is on loan right now. The request stays in the queue until it comes back.',
  borrowItemPendingHandover:
    'The item has a handover request waiting for an answer. The request stays in the queue until that is settled.',
  // h-loans: the loan lifecycle (docs/decisions/0047). `itemOnLoan` comes with `loan` (borrower, dueAt).
  itemOnLoan:
    'This item is on loan. It cannot be changed, handed over, lent again or deleted until it is back.',
  loanBorrowerCannotHandOn: 'This item is lent to you. Return it to its owner instead of handing it on.',
  loanNeedsCompleteOwnership: 'Only an owner with complete ownership can lend this item.',
  loanDueAtRequired: 'Please choose a return date for the loan',
  loanNotActive: 'This loan has already ended.',
  loanOnlyParties: 'Only the lender or the borrower can do this.',
  loanOnlyBorrower: 'Only the borrower can ask for a later return date.',
  loanOnlyLender: 'Only the lender can change the return date or answer a request for more time.',
  loanReturnPending: 'A return of this item is already waiting for confirmation.',
  loanExtensionPending: 'A request for a later return date is already waiting for an answer.',
  loanExtensionNotPending: 'This request for a later return date has already been answered or withdrawn.',
  loanExtensionNotLater: 'The new return date must be later than the current one.',
  loanDueAtUnchanged: 'The loan already has this return date.',
  loanRecalledLenderRecords:
    'This loan was recalled when a party left the circle: the lender records the return.',
  loanReturnStarted: 'Return started. It is complete once the other person confirms it.',
  loanReturnRecorded: 'The return has been recorded.',
  loanExtensionRequested: 'Your request for a later return date has been sent.',
  loanExtensionAccepted: 'The new return date is set.',
  loanExtensionDeclined: 'The request for a later return date was declined.',
  loanExtensionWithdrawn: 'Your request for a later return date has been withdrawn.',
  loanDueAtChanged: 'The return date has been changed.',
  // Issue 26, reminders and the calendar feed (h-reminders)
  invalidTimeZone: 'Unknown time zone',
} as const

export type MessageKey = keyof typeof MESSAGES
/** One of the texts above, word for word: what the server may put in an error's `message`. */
export type MessageText = (typeof MESSAGES)[MessageKey]

const KEY_BY_TEXT = new Map<string, MessageKey>(
  Object.entries(MESSAGES).map(([key, text]) => [text, key as MessageKey]),
)

/** The MESSAGES key whose text this is, if any (the texts are unique). */
export function messageKeyOf(text: string): MessageKey | undefined {
  return KEY_BY_TEXT.get(text.trim())
}

/** True when `key` names one of the MESSAGES (e.g. a `key` read from an answer). */
export function isMessageKey(key: unknown): key is MessageKey {
  return typeof key === 'string' && Object.hasOwn(MESSAGES, key)
}

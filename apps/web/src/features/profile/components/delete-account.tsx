import type { TUser } from '@circles/shared'

/** 'Delete my account' (issue 24, GDPR Art. 17). Being built: renders nothing yet. */
export function DeleteAccount(_props: { user: TUser }) {
  return null
}

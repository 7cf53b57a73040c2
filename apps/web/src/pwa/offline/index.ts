/** Offline reading (issue 27, docs/decisions/0054): the one entry of apps/web/src/pwa/offline. */
export {
  isOffline,
  reportNetworkFailure,
  reportServerAnswered,
  resetOnlineStatus,
  subscribeOnlineStatus,
} from './online-status'
export { useOffline } from './use-offline'
export {
  BUILD_ID,
  PERSIST_MAX_AGE_MS,
  cacheKey,
  clearPersistedQueries,
  persistQueriesOnChange,
  persistQueryCache,
  readPersistedCache,
  restoreQueryCache,
  shouldPersistQuery,
} from './persist'
export {
  NotStoredError,
  clearStoredProofs,
  offlineDeps,
  recordingProofs,
  storedProofs,
  storeProofs,
} from './ledger-proofs'
export type { StoredProofs } from './ledger-proofs'
export { clearOfflineData } from './clear'
export { OfflineNotice, OfflineReason, useOfflineReason } from './offline-notice'
export { startOfflineReading } from './start'

export * from './users'
export * from './outbox'
export * from './circles'
export * from './rate-limits'

export * from './users'
export * from './outbox'

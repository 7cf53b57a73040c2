// What other features may use of the ledger feature.
export { keepReceipt } from './verify/use-ledger-verification'

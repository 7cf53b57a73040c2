/** The ledger package: canonical leaves, RFC 6962 Merkle tree and proofs, checkpoints. Filled by the ledger issue. */
export {}

/**
 * The ledger package: pure TypeScript, no I/O, used by the server, the browser and a later command-line
 * verifier. Today: the RFC 6962 Merkle tree and its proofs; the handovers issue adds the canonical,
 * versioned block encoding and the chain.
 */
export * from './merkle'

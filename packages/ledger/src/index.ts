/**
 * The ledger package: pure TypeScript, no I/O, used by the server, the browser and a later command-line
 * verifier: the canonical, versioned block encoding and the chain verifier (block.ts), the RFC 8785
 * canonical JSON (canonical.ts), the RFC 6962 Merkle tree with its proofs (merkle.ts), C2SP signed
 * notes with Ed25519 (note.ts), tlog checkpoints (checkpoint.ts) and witness cosignatures
 * (cosignature.ts).
 */
export * from './block'
export * from './canonical'
export * from './merkle'
export * from './note'
export * from './checkpoint'
export * from './cosignature'
export * from './cosignature-report'
export * from './verify-export'
export * from './verify-data-export'
export * from './photos'
export * from './tiles'
export * from './tile-authentication'

import Database from 'better-sqlite3'

/**
 * Sets a credential's stored proof in the SQLite file `dbFile` as another state would leave it: `null`
 * (still to be made), `''` (signed before proofs) or a proof's JSON. Straight through the file: the
 * storage port only ever fills a missing proof.
 */
export function setStoredProof(dbFile: string, credentialId: string, proof: string | null): void {
  const db = new Database(dbFile)
  try {
    db.prepare('UPDATE credentials SET proof = ?, proof_lease_until = NULL WHERE id = ?').run(proof, credentialId)
  } finally {
    db.close()
  }
}

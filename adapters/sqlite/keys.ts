import type { Database } from './database.ts'
import type { KeyRecordStore } from '../../core/ports/storage.ts'
import { toStoredKey } from '../shared/rows.ts'

export function createKeyRecordStore(db: Database): KeyRecordStore {
  return {
    async insert(key) {
      db.run(
        'INSERT INTO keys (kid, owner, alg, public_jwk, sealed_private_key, active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        key.kid,
        key.owner,
        key.alg,
        JSON.stringify(key.publicJwk),
        key.sealedPrivateKey,
        key.active ? 1 : 0,
        key.createdAt,
      )
    },
    async findActive(owner) {
      const row = db.get('SELECT * FROM keys WHERE owner = ? AND active = 1', owner)
      return row ? toStoredKey(row) : null
    },
    async findByKid(kid) {
      const row = db.get('SELECT * FROM keys WHERE kid = ?', kid)
      return row ? toStoredKey(row) : null
    },
    async listByOwner(owner) {
      return db.all('SELECT * FROM keys WHERE owner = ? ORDER BY created_at, kid', owner).map(toStoredKey)
    },
    async listActive() {
      return db.all('SELECT * FROM keys WHERE active = 1 ORDER BY owner').map(toStoredKey)
    },
    async deactivateAll(owner) {
      db.run('UPDATE keys SET active = 0 WHERE owner = ? AND active = 1', owner)
    },
  }
}

import { bool, json, num, str, type Database } from './database.ts'
import type { KeyRecordStore, StoredKey } from '../../core/ports/storage.ts'
import type { SqliteRow } from './driver.ts'
import { keyAlgorithm } from '../../core/keys/key-algorithm.ts'

const toKey = (row: SqliteRow): StoredKey => ({
  kid: str(row.kid),
  owner: str(row.owner),
  alg: keyAlgorithm(str(row.alg)),
  publicJwk: json(row.public_jwk),
  sealedPrivateKey: str(row.sealed_private_key),
  active: bool(row.active),
  createdAt: num(row.created_at),
})

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
      return row ? toKey(row) : null
    },
    async findByKid(kid) {
      const row = db.get('SELECT * FROM keys WHERE kid = ?', kid)
      return row ? toKey(row) : null
    },
    async listByOwner(owner) {
      return db.all('SELECT * FROM keys WHERE owner = ? ORDER BY created_at, kid', owner).map(toKey)
    },
    async listActive() {
      return db.all('SELECT * FROM keys WHERE active = 1 ORDER BY owner').map(toKey)
    },
    async deactivateAll(owner) {
      db.run('UPDATE keys SET active = 0 WHERE owner = ? AND active = 1', owner)
    },
  }
}

import { bool, insertedOrConflict, json, num, str, type Database, type Row } from './database.ts'
import type { KeyRecordStore, StoredKey } from '../../core/ports/storage.ts'
import { keyAlgorithm } from '../../core/keys/key-algorithm.ts'

const toKey = (row: Row): StoredKey => ({
  kid: str(row.kid),
  owner: str(row.owner),
  alg: keyAlgorithm(str(row.alg)),
  publicJwk: json(row.public_jwk),
  sealedPrivateKey: str(row.sealed_private_key),
  active: bool(row.active),
  createdAt: num(row.created_at),
})

export function createKeyRecordStore({ sql }: Database): KeyRecordStore {
  return {
    async insert(key) {
      // DO NOTHING covers both the kid and the one-active-key-per-owner index.
      insertedOrConflict(
        await sql`INSERT INTO keys (kid, owner, alg, public_jwk, sealed_private_key, active, created_at)
          VALUES (${key.kid}, ${key.owner}, ${key.alg}, ${JSON.stringify(key.publicJwk)}, ${key.sealedPrivateKey}, ${key.active}, ${key.createdAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'key',
      )
    },
    async findActive(owner) {
      const [row] = await sql`SELECT * FROM keys WHERE owner = ${owner} AND active`
      return row ? toKey(row) : null
    },
    async findByKid(kid) {
      const [row] = await sql`SELECT * FROM keys WHERE kid = ${kid}`
      return row ? toKey(row) : null
    },
    async listByOwner(owner) {
      return (await sql`SELECT * FROM keys WHERE owner = ${owner} ORDER BY created_at, kid`).map(toKey)
    },
    async listActive() {
      return (await sql`SELECT * FROM keys WHERE active ORDER BY owner COLLATE "C"`).map(toKey)
    },
    async deactivateAll(owner) {
      await sql`UPDATE keys SET active = false WHERE owner = ${owner} AND active`
    },
  }
}

import { insertedOrConflict, type Database } from './database.ts'
import type { KeyRecordStore } from '../../core/ports/storage.ts'
import { toStoredKey } from '../shared/rows.ts'

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
      return row ? toStoredKey(row) : null
    },
    async findByKid(kid) {
      const [row] = await sql`SELECT * FROM keys WHERE kid = ${kid}`
      return row ? toStoredKey(row) : null
    },
    async listByOwner(owner) {
      return (await sql`SELECT * FROM keys WHERE owner = ${owner} ORDER BY created_at, kid`).map(toStoredKey)
    },
    async listActive() {
      return (await sql`SELECT * FROM keys WHERE active ORDER BY owner COLLATE "C"`).map(toStoredKey)
    },
    async deactivateAll(owner) {
      await sql`UPDATE keys SET active = false WHERE owner = ${owner} AND active`
    },
  }
}

import { insertedOrConflict, type Database } from './database.ts'
import type { ApiKeyStore, ClientStore } from '../../core/ports/storage.ts'
import { toApiClient, toApiKey } from '../shared/rows.ts'

export function createClientStore({ sql }: Database): ClientStore {
  return {
    async insert(client) {
      insertedOrConflict(
        await sql`INSERT INTO clients (id, club, secret_hash, scopes, secret_set_at, created_at)
          VALUES (${client.id}, ${client.club}, ${client.secretHash}, ${JSON.stringify(client.scopes)}, ${client.secretSetAt}, ${client.createdAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'client',
      )
    },
    async findById(id) {
      const [row] = await sql`SELECT * FROM clients WHERE id = ${id}`
      return row ? toApiClient(row) : null
    },
    async listByClub(club) {
      return (await sql`SELECT * FROM clients WHERE club = ${club} ORDER BY created_at, id`).map(toApiClient)
    },
    async updateSecret(id, secretHash, secretSetAt) {
      const result = await sql`UPDATE clients SET secret_hash = ${secretHash}, secret_set_at = ${secretSetAt} WHERE id = ${id}`
      return result.count > 0
    },
    async delete(id) {
      const result = await sql`DELETE FROM clients WHERE id = ${id}`
      return result.count > 0
    },
  }
}

export function createApiKeyStore({ sql }: Database): ApiKeyStore {
  return {
    async insert(key) {
      insertedOrConflict(
        await sql`INSERT INTO api_keys (id, club, secret_hash, created_at, revoked_at)
          VALUES (${key.id}, ${key.club}, ${key.secretHash}, ${key.createdAt}, ${key.revokedAt})
          ON CONFLICT DO NOTHING RETURNING 1`,
        'API key',
      )
    },
    async findById(id) {
      const [row] = await sql`SELECT * FROM api_keys WHERE id = ${id}`
      return row ? toApiKey(row) : null
    },
    async listByClub(club) {
      return (await sql`SELECT * FROM api_keys WHERE club = ${club} ORDER BY created_at, id`).map(toApiKey)
    },
    async revoke(id, revokedAt) {
      const result = await sql`UPDATE api_keys SET revoked_at = ${revokedAt} WHERE id = ${id} AND revoked_at IS NULL`
      return result.count > 0
    },
  }
}

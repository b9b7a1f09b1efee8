import type { Database } from './database.ts'
import type { ApiKeyStore, ClientStore } from '../../core/ports/storage.ts'
import { toApiClient, toApiKey } from '../shared/rows.ts'

export function createClientStore(db: Database): ClientStore {
  return {
    async insert(client) {
      db.run(
        'INSERT INTO clients (id, club, secret_hash, scopes, secret_set_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        client.id,
        client.club,
        client.secretHash,
        JSON.stringify(client.scopes),
        client.secretSetAt,
        client.createdAt,
      )
    },
    async findById(id) {
      const row = db.get('SELECT * FROM clients WHERE id = ?', id)
      return row ? toApiClient(row) : null
    },
    async listByClub(club) {
      return db.all('SELECT * FROM clients WHERE club = ? ORDER BY created_at, id', club).map(toApiClient)
    },
    async updateSecret(id, secretHash, secretSetAt) {
      return db.run('UPDATE clients SET secret_hash = ?, secret_set_at = ? WHERE id = ?', secretHash, secretSetAt, id) > 0
    },
    async delete(id) {
      return db.run('DELETE FROM clients WHERE id = ?', id) > 0
    },
  }
}

export function createApiKeyStore(db: Database): ApiKeyStore {
  return {
    async insert(key) {
      db.run(
        'INSERT INTO api_keys (id, club, secret_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?)',
        key.id,
        key.club,
        key.secretHash,
        key.createdAt,
        key.revokedAt,
      )
    },
    async findById(id) {
      const row = db.get('SELECT * FROM api_keys WHERE id = ?', id)
      return row ? toApiKey(row) : null
    },
    async listByClub(club) {
      return db.all('SELECT * FROM api_keys WHERE club = ? ORDER BY created_at, id', club).map(toApiKey)
    },
    async revoke(id, revokedAt) {
      return db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', revokedAt, id) > 0
    },
  }
}

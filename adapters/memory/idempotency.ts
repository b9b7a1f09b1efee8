import type { IdempotencyStore } from '../../core/ports/storage.ts'
import { type Journal, put, remove, putNew } from './journal.ts'
import { copy } from './rows.ts'
import type { State } from './state.ts'

/** One Map key for the pair; JSON keeps `('a:b', 'c')` and `('a', 'b:c')` apart. */
const idempotencyKey = (scope: string, key: string): string => JSON.stringify([scope, key])

export function createIdempotencyStore(state: State, journal: Journal): IdempotencyStore {
  return {
    async find(scope, key) {
      const record = state.idempotency.get(idempotencyKey(scope, key))
      return record ? copy(record) : null
    },
    async insert(record) {
      const mapKey = idempotencyKey(record.scope, record.key)
      putNew(journal, state.idempotency, mapKey, copy(record), `idempotency key ${record.key} exists in ${record.scope}`)
    },
    async complete(scope, key, response) {
      const mapKey = idempotencyKey(scope, key)
      const record = state.idempotency.get(mapKey)
      if (record) put(journal, state.idempotency, mapKey, { ...record, response: copy(response) })
    },
    async delete(scope, key) {
      remove(journal, state.idempotency, idempotencyKey(scope, key))
    },
    async purgeExpired(now) {
      let purged = 0
      for (const [mapKey, record] of state.idempotency) {
        if (record.expiresAt < now && remove(journal, state.idempotency, mapKey)) purged++
      }
      return purged
    },
  }
}

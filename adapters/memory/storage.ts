import { createMutex } from '../shared/mutex.ts'
import type { StoragePort, Stores } from '../../core/ports/storage.ts'
import { createAchievementStore } from './achievements.ts'
import { createClientAuthFailureStore } from './client-auth-failures.ts'
import { createApiKeyStore, createClientStore } from './clients.ts'
import { createClubStore } from './clubs.ts'
import { createCredentialStore } from './credentials.ts'
import { createSigningJobStore } from './signing-jobs.ts'
import { createDesignStore, createImageStore } from './designs.ts'
import { createEventStore } from './events.ts'
import { createIdempotencyStore } from './idempotency.ts'
import { createIssuanceStore, createSnapshotStore } from './issuances.ts'
import type { Journal } from './journal.ts'
import { createKeyRecordStore } from './keys.ts'
import { createOutboxStore } from './outbox.ts'
import { createState, type State } from './state.ts'
import { createStatusListStore } from './status-lists.ts'
import { createWebhookDeliveryStore } from './webhook-deliveries.ts'
import { createWebhookEndpointStore } from './webhook-endpoints.ts'

/** The stores over one storage's state, recording undo steps in `journal`. */
function createStores(state: State, journal: Journal): Stores {
  return {
    clubs: createClubStore(state, journal),
    clients: createClientStore(state, journal),
    clientAuthFailures: createClientAuthFailureStore(state, journal),
    keys: createKeyRecordStore(state, journal),
    achievements: createAchievementStore(state, journal),
    snapshots: createSnapshotStore(state, journal),
    issuances: createIssuanceStore(state, journal),
    credentials: createCredentialStore(state, journal),
    signingJobs: createSigningJobStore(state, journal),
    statusLists: createStatusListStore(state, journal),
    events: createEventStore(state, journal),
    idempotency: createIdempotencyStore(state, journal),
    outbox: createOutboxStore(state, journal),
    designs: createDesignStore(state, journal),
    images: createImageStore(state, journal),
    apiKeys: createApiKeyStore(state, journal),
    webhookEndpoints: createWebhookEndpointStore(state, journal),
    webhookDeliveries: createWebhookDeliveryStore(state, journal),
  }
}

/**
 * The stores as seen outside a unit of work: every call is a unit of its own, so that reads queue
 * behind a running unit (never seeing its uncommitted writes) and writes stay all-or-nothing.
 */
function outsideUnits(unit: <T>(work: (tx: Stores) => Promise<T>) => Promise<T>, shape: Stores): Stores {
  const stores: Record<string, Record<string, unknown>> = {}
  for (const [name, store] of Object.entries(shape)) {
    stores[name] = {}
    for (const method of Object.keys(store)) {
      stores[name][method] = (...args: unknown[]) =>
        unit((tx) => (tx as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<unknown>>>)[name]![method]!(...args))
    }
  }
  return stores as unknown as Stores
}

/**
 * The reference storage: plain Maps, all-or-nothing units of work by an undo journal. For tests and
 * embedders who keep nothing across restarts.
 *
 * @example
 * const storage = createMemoryStorage()
 */
export function createMemoryStorage(): StoragePort {
  const state = createState()
  const mutex = createMutex()
  let closed = false

  function unit<T>(work: (tx: Stores) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('storage is closed'))
    return mutex.exclusive(async () => {
      const journal: Journal = []
      try {
        return await work(createStores(state, journal))
      } catch (error) {
        for (const undo of journal.reverse()) undo()
        throw error
      }
    })
  }

  return {
    ...outsideUnits(unit, createStores(state, [])),
    transaction: unit,
    async ping() {
      if (closed) throw new Error('storage is closed')
      // Nothing to migrate: the maps are always of this code's shape.
      return { migrated: true }
    },
    async close() {
      closed = true
    },
  }
}

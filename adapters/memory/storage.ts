import { createMutex } from '../shared/mutex.ts'
import { createStores, outsideUnits, type StoreFactories } from '../shared/stores.ts'
import type { ConsoleStoragePort, ConsoleUnitOfWork } from '../../core/ports/storage.ts'
import { createAchievementStore } from './achievements.ts'
import { createClientAuthFailureStore } from './client-auth-failures.ts'
import { createAdminSessionStore, createAdminStore } from './admins.ts'
import { createAdminPasskeyStore, createPasskeyChallengeStore } from './admin-passkeys.ts'
import { createCsvUploadStore } from './csv-uploads.ts'
import { createApiKeyStore, createClientStore } from './clients.ts'
import { createClubStore } from './clubs.ts'
import { createCredentialStore } from './credentials.ts'
import { createIssuanceClaimStore } from './issuance-claims.ts'
import { createExpiryStore } from './expiry.ts'
import { createShareViewStore } from './share-views.ts'
import { createActivityStore } from './activity.ts'
import { createSigningJobStore } from './signing-jobs.ts'
import { createDesignStore, createImageStore } from './designs.ts'
import { createEventStore } from './events.ts'
import { createIdempotencyStore } from './idempotency.ts'
import { createIssuanceStore, createSnapshotStore } from './issuances.ts'
import type { Journal } from './journal.ts'
import { createKeyRecordStore } from './keys.ts'
import { createOutboxStore } from './outbox.ts'
import { createResendStore } from './resends.ts'
import { createState, type State } from './state.ts'
import { createStatusListStore } from './status-lists.ts'
import { createWebhookDeliveryStore } from './webhook-deliveries.ts'
import { createWebhookEndpointStore } from './webhook-endpoints.ts'
import { createReissueStore } from './reissues.ts'

/** The stores over one storage's state, recording undo steps in the journal given. */
const MEMORY_STORES: StoreFactories<[State, Journal]> = {
  clubs: createClubStore,
  clients: createClientStore,
  clientAuthFailures: createClientAuthFailureStore,
  admins: createAdminStore,
  adminSessions: createAdminSessionStore,
  adminPasskeys: createAdminPasskeyStore,
  passkeyChallenges: createPasskeyChallengeStore,
  csvUploads: createCsvUploadStore,
  keys: createKeyRecordStore,
  achievements: createAchievementStore,
  snapshots: createSnapshotStore,
  issuances: createIssuanceStore,
  credentials: createCredentialStore,
  claims: createIssuanceClaimStore,
  expiry: createExpiryStore,
  shareViews: createShareViewStore,
  activity: createActivityStore,
  signingJobs: createSigningJobStore,
  statusLists: createStatusListStore,
  events: createEventStore,
  idempotency: createIdempotencyStore,
  outbox: createOutboxStore,
  resends: createResendStore,
  designs: createDesignStore,
  images: createImageStore,
  apiKeys: createApiKeyStore,
  webhookEndpoints: createWebhookEndpointStore,
  webhookDeliveries: createWebhookDeliveryStore,
  reissues: createReissueStore,
}

/**
 * The reference storage: plain Maps, all-or-nothing units of work by an undo journal. For tests and
 * embedders who keep nothing across restarts.
 *
 * @example
 * const storage = createMemoryStorage()
 */
export function createMemoryStorage(): ConsoleStoragePort {
  const state = createState()
  const mutex = createMutex()
  let closed = false

  function unit<T>(work: (tx: ConsoleUnitOfWork) => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(new Error('storage is closed'))
    return mutex.exclusive(async () => {
      const journal: Journal = []
      try {
        return await work(createStores(MEMORY_STORES, state, journal))
      } catch (error) {
        for (const undo of journal.reverse()) undo()
        throw error
      }
    })
  }

  return {
    ...outsideUnits(createStores(MEMORY_STORES, state, []), unit),
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

import { createMutex } from '../shared/mutex.ts'
import { createStores, mapMethods, type StoreFactories } from '../shared/stores.ts'
import { createAchievementStore } from './achievements.ts'
import { createClientAuthFailureStore } from './client-auth-failures.ts'
import { createAdminSessionStore, createAdminStore } from './admins.ts'
import { createAdminPasskeyStore, createPasskeyChallengeStore } from './admin-passkeys.ts'
import { createCsvUploadStore } from './csv-uploads.ts'
import { createApiKeyStore, createClientStore } from './clients.ts'
import { createClubStore } from './clubs.ts'
import { createDatabase, type Database } from './database.ts'
import { createKeyRecordStore } from './keys.ts'
import { createCredentialStore } from './credentials.ts'
import { createReissueStore } from './reissues.ts'
import { createIssuanceClaimStore } from './issuance-claims.ts'
import { createExpiryStore } from './expiry.ts'
import { createShareViewStore } from './share-views.ts'
import { createActivityStore } from './activity.ts'
import { createSigningJobStore } from './signing-jobs.ts'
import { createDesignStore, createImageStore } from './designs.ts'
import { createEventStore } from './events.ts'
import { createIdempotencyStore } from './idempotency.ts'
import { createIssuanceStore, createSnapshotStore } from './issuances.ts'
import { createOutboxStore } from './outbox.ts'
import { createResendStore } from './resends.ts'
import { createStatusListStore } from './status-lists.ts'
import { createWebhookDeliveryStore } from './webhook-deliveries.ts'
import { createWebhookEndpointStore } from './webhook-endpoints.ts'
import { migrate } from './migrate.ts'
import { MIGRATIONS } from './migrations/index.ts'
import type { ConsoleStoragePort } from '../../core/ports/storage.ts'
import type { SqliteDriver } from './driver.ts'

/** The stores over one connection. */
const SQLITE_STORES: StoreFactories<[Database]> = {
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

const LATEST_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version))

export interface SqliteStorageOptions {
  /** An open driver: `betterSqlite3Driver(path)` on Node, `nodeSqliteDriver(path)` on Deno. */
  driver: SqliteDriver
}

/** Bytes per page of a new database file. */
export const PAGE_SIZE = 8192

/**
 * SQLite storage on one connection. WAL lets readers in other processes (the admin CLI) work beside
 * the server; `BEGIN IMMEDIATE` takes the write lock up front so that two processes never deadlock
 * upgrading read locks; the async mutex keeps this process's other requests out of an open unit.
 *
 * @example
 * const storage = createSqliteStorage({ driver: betterSqlite3Driver('data/clubcred.db') })
 */
export function createSqliteStorage({ driver }: SqliteStorageOptions): ConsoleStoragePort {
  // A new file gets 8 KiB pages: two 3.9 KB credentials share a leaf page where 4 KiB pages split one
  // per credential (docs/decisions/0017-sqlite-tables-keyed-to-append.md). SQLite ignores this on a
  // file that already has tables; its pages keep their size.
  driver.exec(`PRAGMA page_size = ${PAGE_SIZE}`)
  driver.exec('PRAGMA journal_mode = WAL')
  // FULL: a committed issuance survives power loss too, not only a crashed process.
  driver.exec('PRAGMA synchronous = FULL')
  driver.exec('PRAGMA foreign_keys = ON')
  driver.exec('PRAGMA busy_timeout = 10000')
  migrate(driver)

  const db = createDatabase(driver)
  const stores = createStores(SQLITE_STORES, db)
  const mutex = createMutex()
  let closed = false

  return {
    // Outside a unit of work every store method waits for a running unit (the connection is shared,
    // and it must not read that unit's uncommitted rows). A single statement is atomic on its own.
    ...mapMethods(
      stores,
      (_store, _method, fn) =>
        (...args) =>
          mutex.read(() => fn(...args)),
    ),
    transaction(work) {
      if (closed) return Promise.reject(new Error('storage is closed'))
      return mutex.exclusive(async () => {
        driver.exec('BEGIN IMMEDIATE')
        try {
          const result = await work(stores)
          driver.exec('COMMIT')
          return result
        } catch (error) {
          driver.exec('ROLLBACK')
          throw error
        }
      })
    },
    async ping() {
      if (closed) throw new Error('storage is closed')
      // Straight on the connection, not behind the mutex: a long unit must not read as an outage, and the
      // version is never changed by a unit.
      const version = Number(driver.prepare('PRAGMA user_version').get()?.user_version ?? 0)
      return { migrated: version >= LATEST_VERSION }
    },
    async close() {
      await mutex.exclusive(async () => {
        closed = true
        driver.close()
      })
    },
  }
}

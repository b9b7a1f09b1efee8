import postgres from 'postgres'
import { createStores, mapMethods, outsideUnits, type StoreFactories } from '../shared/stores.ts'
import { createAchievementStore } from './achievements.ts'
import { createApiKeyStore, createClientStore } from './clients.ts'
import { createClientAuthFailureStore } from './client-auth-failures.ts'
import { createAdminSessionStore, createAdminStore } from './admins.ts'
import { createAdminPasskeyStore, createPasskeyChallengeStore } from './admin-passkeys.ts'
import { createCsvUploadStore } from './csv-uploads.ts'
import { createClubStore } from './clubs.ts'
import { createCredentialStore } from './credentials.ts'
import { createReissueStore } from './reissues.ts'
import { createIssuanceClaimStore } from './issuance-claims.ts'
import { createExpiryStore } from './expiry.ts'
import { createShareViewStore } from './share-views.ts'
import { createActivityStore } from './activity.ts'
import { SIGNING_JOBS_CHANNEL, createSigningJobStore } from './signing-jobs.ts'
import { createDesignStore, createImageStore } from './designs.ts'
import { translated } from './errors.ts'
import { createEventStore } from './events.ts'
import { createIdempotencyStore } from './idempotency.ts'
import { createIssuanceStore, createSnapshotStore } from './issuances.ts'
import { createKeyRecordStore } from './keys.ts'
import { LOCK_IDS, clubLockSpace, lockSpace } from './locks.ts'
import { assertSchemaName, migrate } from './migrate.ts'
import { MIGRATIONS } from './migrations/index.ts'
import { createOutboxStore } from './outbox.ts'
import { createResendStore } from './resends.ts'
import { assertSchemaOnSearchPath, withTransactionSettings } from './pgbouncer.ts'
import { createWebhookDeliveryStore } from './webhook-deliveries.ts'
import { createWebhookEndpointStore } from './webhook-endpoints.ts'
import { createStatusListStore } from './status-lists.ts'
import type { Database, UnitLock } from './database.ts'
import type { ConsoleStoragePort, ConsoleUnitOfWork, UnitOptions } from '../../core/ports/storage.ts'
import type { Sql } from 'postgres'

export interface PostgresStorageOptions {
  /** `postgres://user:password@host:5432/database`. */
  url: string
  /** Connections this process opens at most. */
  poolSize?: number
  /** A statement running longer is cancelled (and surfaces as StorageUnavailable). */
  statementTimeoutMs?: number
  /** The schema holding clubcred's tables, created when missing: a host app keeps its own tables beside it. */
  schema?: string
  /** How long to wait for a new connection before giving up (StorageUnavailable). */
  connectTimeoutMs?: number
  /**
   * `url` is a pooler in transaction mode (PgBouncer's `pool_mode = transaction`), which hands each
   * transaction whichever server connection is free: no named prepared statements (one more round trip
   * per statement with parameters), no session settings (each transaction sets its timeouts with
   * `SET LOCAL`), and the role's default `search_path` must find `schema` first, which opening checks
   * (docs/deployment.md § Behind PgBouncer). Default false: a direct connection, or a pooler in session mode.
   */
  pgbouncer?: boolean
}

/**
 * A transaction that stays open longer than this without a statement is ended by the server: a node
 * that hangs inside a unit (stopped in a debugger, its event loop stuck) cannot hold the unit lock for
 * ever and stall every other node.
 */
const IDLE_IN_TRANSACTION_MS = 60_000

/** Store methods that only read: called directly on the port, they run on the pool without any lock. */
const READS: { [S in keyof ConsoleUnitOfWork]: (keyof ConsoleUnitOfWork[S])[] } = {
  clubs: ['findByDomain', 'count'],
  clients: ['findById', 'listByClub'],
  clientAuthFailures: ['find'],
  admins: ['findById', 'findByEmail', 'findBySetupTokenHash', 'listByClub', 'findLoginFailures'],
  adminSessions: ['findByIdHash'],
  adminPasskeys: ['findByCredentialId', 'listByAdmin'],
  passkeyChallenges: [],
  csvUploads: ['findById', 'listRows', 'progress', 'findFile'],
  keys: ['findActive', 'findByKid', 'listByOwner', 'listActive'],
  achievements: ['findById', 'list', 'countByClub'],
  snapshots: ['findById'],
  issuances: ['findById', 'findByIdAcrossClubs', 'findByIds', 'findHeld', 'list', 'countByStatus', 'search'],
  credentials: ['findById', 'findByIssuance', 'findByIssuances', 'listRevokedIndexes'],
  claims: ['listByIssuance'],
  expiry: ['position', 'listIssuedAfter', 'listValidUntil', 'listNotices', 'listTemplatesWithReminders'],
  shareViews: ['find'],
  activity: ['weekly'],
  signingJobs: ['count', 'countBacklog'],
  statusLists: ['current', 'listByClub'],
  events: ['list', 'listBySubject'],
  idempotency: ['find'],
  outbox: [],
  resends: ['listSince', 'listMailable'],
  designs: ['findById', 'list'],
  images: ['findByHash'],
  apiKeys: ['findById', 'listByClub'],
  webhookEndpoints: ['findById', 'listByClub'],
  webhookDeliveries: ['listByEndpoint'],
  reissues: ['listByIssuances', 'listEarlierVersions'],
}

/** The stores over one unit's transaction, or over the pool. */
const POSTGRES_STORES: StoreFactories<[Database]> = {
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

/** The schema of clubcred's tables unless the embedder names another. */
export const DEFAULT_POSTGRES_SCHEMA = 'clubcred'

/** The newest schema version this adapter's migrations make; `ping` reports whether the database has it. */
const LATEST_VERSION = Math.max(...MIGRATIONS.map((migration) => migration.version))

/**
 * PostgreSQL storage (14 or newer) for one or many processes on one database.
 *
 * Units of work are READ COMMITTED transactions ordered by transaction-scoped advisory locks. A unit of
 * one club (`{ club }`: a batch accepted, a revocation, an Idempotency-Key claimed, a template, design,
 * client, webhook or key of the club made or changed) first takes that club's issuing lock: like
 * SQLite's single writer, but per club, so no unit of the club interleaves with another while clubs
 * proceed side by side. A unit that names no club and is not `concurrent` takes the unit lock for the
 * whole database, exclusively: only the instance's own key made and the port's direct writes do, and
 * such a unit runs alone, its checks needing no second thought. Units of clubs hold the unit lock
 * shared, so they wait for it and it for them.
 *
 * What the club's locks buy is commit order within the club: its issuance sequences are numbered under
 * its issuing lock, its event ids under its feed lock, and each is released by the commit, so no unit
 * can take a higher number and commit before a lower one. A unit takes the feed lock only when it
 * appends its first event of the club, late in the unit: a worker storing credentials waits for a batch
 * being accepted only while that batch writes its events and commits, not for the whole batch. The
 * event feed's cursor (`id < cursor`, newest first) and the issuance lists are per club, and that is
 * exactly what they need across nodes: a reader that has seen id n will never later find a committed
 * id below n in that club that it missed. Across clubs ids may commit out of order; nothing reads them
 * across clubs in id order.
 *
 * Direct writes (a store called on the port) run as a unit of their own for the whole database; direct
 * reads take no lock, and READ COMMITTED never shows them uncommitted rows. `transaction(work, {
 * concurrent: true })` takes no lock at the start, so that workers claim jobs and store credentials in
 * parallel; its writes are made safe by row locks (`FOR UPDATE SKIP LOCKED`) and constraints, and the
 * writes whose order matters (issuances, events) take their clubs' locks themselves, in the order of
 * the locks' keys, a club's issuing lock before its feed lock, so two units never wait on each other in
 * a circle.
 *
 * Errors: uniqueness violations are StorageConflict (inserts use ON CONFLICT DO NOTHING, so a refused
 * insert does not abort the unit); a database that is down or unreachable is StorageUnavailable, and
 * the pool reconnects by itself when it is back.
 *
 * @example
 * const storage = await createPostgresStorage({ url: process.env.CLUBCRED_DATABASE_URL! })
 */
export async function createPostgresStorage({
  url,
  poolSize = 10,
  statementTimeoutMs = 30_000,
  schema = DEFAULT_POSTGRES_SCHEMA,
  connectTimeoutMs = 10_000,
  pgbouncer = false,
}: PostgresStorageOptions): Promise<ConsoleStoragePort> {
  assertSchemaName(schema)
  const sql = connect(url, { poolSize, statementTimeoutMs, schema, connectTimeoutMs, pgbouncer })
  try {
    await translated(() => migrate(sql, schema))
    if (pgbouncer) await translated(() => assertSchemaOnSearchPath(sql, schema))
  } catch (error) {
    await sql.end({ timeout: 1 })
    throw error
  }

  const locks = lockSpace(schema)
  const clubLocks = { issuing: clubLockSpace(schema, 'issuing'), feed: clubLockSpace(schema, 'feed') }

  const reads = createReadTracker()

  /**
   * One unit: its transaction, its stores on it, and the advisory locks it took (each taken once). A
   * unit of the whole database holds the unit lock exclusively; a unit of clubs holds it shared, with
   * each club's own lock: clubs' units run side by side, and none runs beside a unit of the whole database.
   */
  async function runUnit<T>(work: (tx: ConsoleUnitOfWork) => Promise<T>, options: UnitOptions): Promise<T> {
    const openedAt = reads.mark()
    try {
      return await translated(
        () =>
          sql.begin('isolation level read committed', async (tx) => {
            const held = new Set<UnitLock>()
            const clubsHeld = new Set<string>()
            let wholeDatabase = false
            let shared = false
            const database: Database = {
              sql: tx,
              async lock(name) {
                if (held.has(name)) return
                await tx`SELECT pg_advisory_xact_lock(hashtext(${locks}), ${LOCK_IDS[name]})`
                held.add(name)
              },
              async lockClubs(clubs, kind) {
                if (wholeDatabase) return
                const wanted = [...new Set(clubs)].filter((club) => !clubsHeld.has(`${kind} ${club}`))
                if (wanted.length === 0) return
                // Sent together, and marked held before they are granted: the unit's later statements
                // queue behind them on its connection, so a write pipelined beside this call (a row it
                // updates) still waits for the locks rather than holding its row while they are awaited.
                const statements = shared ? [] : [tx`SELECT pg_advisory_xact_lock_shared(hashtext(${locks}), ${LOCK_IDS.unit})`]
                // In the order of their keys, whoever asks: two units that each want two clubs never
                // each hold one and wait for the other. (A unit takes a club's feed lock only after its
                // issuing lock, never the other way round.)
                statements.push(tx`SELECT pg_advisory_xact_lock(hashtext(${clubLocks[kind]}), key)
                  FROM (SELECT DISTINCT hashtext(club) AS key FROM unnest(${wanted}::text[]) AS club ORDER BY key) AS keys`)
                shared = true
                for (const club of wanted) clubsHeld.add(`${kind} ${club}`)
                await Promise.all(statements)
              },
            }
            if (options.club !== undefined) await database.lockClubs([options.club], 'issuing')
            else if (options.concurrent !== true) {
              await tx`SELECT pg_advisory_xact_lock(hashtext(${locks}), ${LOCK_IDS.unit})`
              wholeDatabase = true
            }
            return work(translatedStores(createStores(POSTGRES_STORES, database)))
          }) as Promise<T>,
      )
    } finally {
      await reads.settledSince(openedAt)
    }
  }

  const pooled = translatedStores(
    createStores(POSTGRES_STORES, {
      sql,
      lock: () => Promise.reject(new Error('advisory locks are taken inside units only')),
      lockClubs: () => Promise.reject(new Error('advisory locks are taken inside units only')),
    }),
  )

  return {
    // Reads straight on the pool, writes each as its own unit (under the unit lock).
    ...outsideUnits(
      pooled,
      (call) => runUnit(call, {}),
      (store, method, fn) => ((READS[store] as string[]).includes(method) ? (...args) => reads.track(fn(...args)) : null),
    ),
    transaction(work, options) {
      return runUnit(work, options ?? {})
    },
    watchSigningJobs(listener) {
      // LISTEN lives on a session, which a pooler in transaction mode does not keep: there the worker
      // polls (docs/deployment.md § Behind PgBouncer).
      if (pgbouncer) return () => {}
      // One connection of its own (the driver's), which the driver listens on again after it reconnects.
      let stopped = false
      let listening: { unlisten(): Promise<void> } | null = null
      const onNotify = (payload: string) => {
        if (payload === schema) listener()
      }
      sql.listen(SIGNING_JOBS_CHANNEL, onNotify).then(
        (request) => {
          listening = request
          if (stopped) request.unlisten().catch(() => {})
        },
        // The database is away at the start: the worker's poll finds the jobs meanwhile.
        () => {},
      )
      return () => {
        stopped = true
        listening?.unlisten().catch(() => {})
      }
    },
    async ping() {
      // On the pool, beside any unit; `migrations` records each version applied (migrate.ts).
      const [row] = await translated(() => sql`SELECT coalesce(max(version), 0) AS version FROM migrations`)
      return { migrated: Number(row!.version) >= LATEST_VERSION }
    },
    async close() {
      await sql.end({ timeout: 5 })
    },
  }
}

/** Runs the migrations on `url` and returns: for a deploy step that migrates before the nodes start. */
export async function migratePostgres({
  url,
  schema = DEFAULT_POSTGRES_SCHEMA,
  connectTimeoutMs = 10_000,
  pgbouncer = false,
}: Pick<PostgresStorageOptions, 'url' | 'schema' | 'connectTimeoutMs' | 'pgbouncer'>): Promise<void> {
  assertSchemaName(schema)
  const sql = connect(url, { poolSize: 1, statementTimeoutMs: 0, schema, connectTimeoutMs, pgbouncer })
  try {
    await translated(() => migrate(sql, schema))
  } finally {
    await sql.end({ timeout: 1 })
  }
}

function connect(url: string, o: Required<Omit<PostgresStorageOptions, 'url'>>): Sql {
  const settings = {
    search_path: o.schema,
    statement_timeout: o.statementTimeoutMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
  }
  const sql = postgres(url, {
    max: o.poolSize,
    connect_timeout: Math.max(1, Math.ceil(o.connectTimeoutMs / 1000)),
    // The server's notices (CREATE ... IF NOT EXISTS skipping) are not ours to print.
    onnotice: () => {},
    // A named prepared statement lives on one server connection; behind a pooler the next transaction
    // may be on another, where it does not exist (pgbouncer.ts).
    prepare: !o.pgbouncer,
    // PgBouncer keeps application_name per client; it refuses other startup parameters, or drops them
    // when told to ignore them, so behind it each transaction sets them itself.
    connection: o.pgbouncer ? { application_name: 'clubcred' } : { application_name: 'clubcred', ...settings },
  })
  return o.pgbouncer ? withTransactionSettings(sql, settings) : sql
}

/** Driver errors leave every store method as core's StorageConflict / StorageUnavailable. */
function translatedStores(stores: ConsoleUnitOfWork): ConsoleUnitOfWork {
  return mapMethods(
    stores,
    (_store, _method, fn) =>
      (...args) =>
        translated(() => fn(...args)),
  )
}

/**
 * Direct reads in flight, so that a unit settles only after the direct reads this process started
 * while it was open. They never wait for the unit (they run beside it on other connections and never
 * see its uncommitted rows), but a caller that read while its unit ran gets both answers in the order
 * the in-process adapters give them: unit settled means the reads started during it have answered.
 * The wait is short (reads take no locks) and happens after commit, with the connection released.
 */
function createReadTracker() {
  let started = 0
  const inFlight = new Map<number, Promise<unknown>>()
  return {
    mark: () => started,
    track<T>(read: Promise<T>): Promise<T> {
      const id = ++started
      inFlight.set(id, read)
      const forget = () => inFlight.delete(id)
      read.then(forget, forget)
      return read
    },
    async settledSince(mark: number): Promise<void> {
      const pending = [...inFlight].filter(([id]) => id > mark).map(([, read]) => read)
      if (pending.length > 0) await Promise.allSettled(pending)
    },
  }
}

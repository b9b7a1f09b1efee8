import type { ClientAuthFailureWindow } from '../clients/auth-failure-window.ts'
import type { Admin, AdminLoginFailureWindow } from '../admins/admin.ts'
import type { AdminSession } from '../admins/admin-session.ts'
import type { AdminPasskey, PasskeyChallenge } from '../admins/passkey.ts'
import type { StoredKey } from '../keys/stored-key.ts'
import type { SigningJob } from '../signing-queue/signing-job.ts'
import type { StatusList } from '../status-lists/status-list.ts'
import type { ClubEvent } from '../events/event.ts'
import type { IdempotencyRecord } from '../idempotency/idempotency-record.ts'
import type { NewOutboxMessage, OutboxMessage } from '../notifications/outbox-message.ts'
import type { NewResendRequest, ResendRequest } from '../issuances/resend-request.ts'
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint.ts'
import type { NewWebhookDelivery, WebhookDelivery } from '../webhooks/webhook-delivery.ts'
import type { ApiKeyRecord } from '../api-keys/api-key.ts'
import type { CsvFile, CsvUpload, CsvUploadProgress, CsvUploadRow } from '../csv-uploads/csv-upload.ts'
import type { IssuanceClaim } from '../issuances/issuance-claim.ts'
import type { ClubStore } from '../clubs/club-store.ts'
import type { ClientStore } from '../clients/client-store.ts'
import type { ClientAuthFailureStore } from '../clients/client-auth-failure-store.ts'
import type { AdminStore } from '../admins/admin-store.ts'
import type { AdminSessionStore } from '../admins/admin-session-store.ts'
import type { AdminPasskeyStore } from '../admins/admin-passkey-store.ts'
import type { PasskeyChallengeStore } from '../admins/passkey-challenge-store.ts'
import type { CsvUploadStore } from '../csv-uploads/csv-upload-store.ts'
import type { KeyRecordStore } from '../keys/key-record-store.ts'
import type { KeysetPage } from './keyset-page.ts'
import type { AchievementStore } from '../achievements/achievement-store.ts'
import type { SnapshotStore } from '../issuances/snapshot-store.ts'
import type { IssuancePage, RecipientMatch, IssuanceSearch, IssuanceCounts, IssuanceStore, HeldCheck } from '../issuances/issuance-store.ts'
import type { CredentialStore } from '../credentials/credential-store.ts'
import type { ResendStore } from '../issuances/resend-store.ts'
import type { IssuanceClaimStore } from '../issuances/issuance-claim-store.ts'
import type { SweepPosition, ExpiryStore } from '../issuances/expiry-store.ts'
import type { ShareViewStore } from '../verification/share-view-store.ts'
import type { ActivityStore } from '../admins/activity-store.ts'
import type { SigningJobStore, SigningBacklog } from '../signing-queue/signing-job-store.ts'
import type { StatusListStore } from '../status-lists/status-list-store.ts'
import type { EventStore } from '../events/event-store.ts'
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts'
import type { OutboxStore } from '../notifications/outbox-store.ts'
import type { WebhookEndpointStore } from '../webhooks/webhook-endpoint-store.ts'
import type { WebhookDeliveryStore } from '../webhooks/webhook-delivery-store.ts'
import type { DesignStore } from '../designs/design-store.ts'
import type { ApiKeyStore } from '../api-keys/api-key-store.ts'
import type { ImageStore } from '../designs/image-store.ts'
import type { ReissueStore } from '../reissues/reissue-store.ts'

// Each store's port lives beside the records it keeps (docs/decisions/0048-storage-port-per-store.md); this
// file composes them. It re-exports every store and record, so that an adapter (and the package root,
// which exports every type of this file) finds each one here.
export type {
  ClubStore,
  ClientStore,
  ClientAuthFailureStore,
  AdminStore,
  AdminSessionStore,
  AdminPasskeyStore,
  PasskeyChallengeStore,
  CsvUploadStore,
  KeyRecordStore,
  KeysetPage,
  AchievementStore,
  SnapshotStore,
  IssuancePage,
  RecipientMatch,
  IssuanceSearch,
  IssuanceCounts,
  IssuanceStore,
  HeldCheck,
  CredentialStore,
  ResendStore,
  IssuanceClaimStore,
  SweepPosition,
  ExpiryStore,
  ShareViewStore,
  ActivityStore,
  SigningJobStore,
  SigningBacklog,
  StatusListStore,
  EventStore,
  IdempotencyStore,
  OutboxStore,
  WebhookEndpointStore,
  WebhookDeliveryStore,
  DesignStore,
  ApiKeyStore,
  ImageStore,
  ReissueStore,
}
export type { Admin, AdminLoginFailureWindow, AdminSession, AdminPasskey, PasskeyChallenge }
export type { ClientAuthFailureWindow, StoredKey, SigningJob, StatusList, ClubEvent, IdempotencyRecord }
export type { NewOutboxMessage, OutboxMessage, WebhookEndpoint, NewWebhookDelivery, WebhookDelivery, ApiKeyRecord }
export type { CsvFile, CsvUpload, CsvUploadProgress, CsvUploadRow }
export type { ReissueRecord, IssuanceAmendment, CredentialVersion, SupersedeOutcome } from '../reissues/reissue-record.ts'
export type { NewResendRequest, ResendRequest }
export type { IssuanceClaim }

/**
 * The stores every storage has: what core reads and writes besides the staff console.
 *
 * Contract for all stores:
 * - every method is async, so that a network database fits behind it;
 * - reads of something absent return `null` (or `[]`), they never throw;
 * - records go in and come out as plain objects (no prototypes, no driver types);
 * - a uniqueness violation MUST surface as `StorageConflict` from `core/errors.ts`, never a driver error.
 */
export interface Stores {
  clubs: ClubStore
  clients: ClientStore
  clientAuthFailures: ClientAuthFailureStore
  keys: KeyRecordStore
  achievements: AchievementStore
  snapshots: SnapshotStore
  issuances: IssuanceStore
  credentials: CredentialStore
  claims: IssuanceClaimStore
  expiry: ExpiryStore
  shareViews: ShareViewStore
  signingJobs: SigningJobStore
  statusLists: StatusListStore
  events: EventStore
  idempotency: IdempotencyStore
  outbox: OutboxStore
  resends: ResendStore
  designs: DesignStore
  images: ImageStore
  apiKeys: ApiKeyStore
  webhookEndpoints: WebhookEndpointStore
  webhookDeliveries: WebhookDeliveryStore
  reissues: ReissueStore
}

/**
 * The staff console's stores (docs/admin-console.md), which nothing but the console reads or writes. A
 * storage MAY leave out the group, all of it: the console is then off (`IssuerOptions.console`), and core
 * runs on the other stores alone. A storage that has the group MUST have all of it, on the port and in
 * every unit of work. Every storage clubcred ships has it.
 */
export interface ConsoleStores {
  admins: AdminStore
  adminSessions: AdminSessionStore
  adminPasskeys: AdminPasskeyStore
  passkeyChallenges: PasskeyChallengeStore
  csvUploads: CsvUploadStore
  activity: ActivityStore
}

/** The stores as seen inside a transaction: the console's too when the storage has them. */
export type UnitOfWork = Stores & Partial<ConsoleStores>

/** The stores inside a transaction of a storage that has the console's (`ConsoleStoragePort`). */
export type ConsoleUnitOfWork = Stores & ConsoleStores

/** How a unit of work may run. */
export interface UnitOptions {
  /**
   * The unit's writes are safe under concurrency by row locks and constraints alone; an adapter MAY run
   * it without serialising it against other units (PostgreSQL does, so that several workers claim jobs
   * in parallel; memory and SQLite ignore it). It stays all-or-nothing, and reads outside it still never
   * see its uncommitted writes. A caller MUST only pass it for a unit whose every write is such a write:
   * claims of leased rows (`signingJobs.claim`, `outbox.claimDue`), writes to the rows those claims
   * returned, and `statusLists.takeSlots`/`insert`, and appends no other unit checks before writing
   * (credentials, which the storage refuses twice for one issuance, their events and messages); and a
   * unit of one write that reads nothing first (a secret replaced, a row deleted, a failure counted by
   * an upsert, a redeemed code inserted once), which a single statement makes atomic by itself.
   */
  concurrent?: boolean
  /**
   * Every write of the unit is of this club: an adapter MAY run it beside units of other clubs, but
   * never beside another unit of the same club or one that names no club (PostgreSQL does; memory and
   * SQLite, with one writer, ignore it). The caller's checks-then-writes keep their meaning within the
   * club: two batches of one club still run one after the other.
   */
  club?: string
}

/**
 * Every store is also reachable on the port itself, outside a unit of work (`storage.clubs.count()`).
 * Called that way, a write MUST wait while a unit is running (the unit never sees it land), and a read
 * MUST NOT see a running unit's uncommitted writes: it waits for the unit (memory, SQLite) or answers
 * from committed state beside it (PostgreSQL, where reads run in parallel with units). A write is
 * committed when its promise resolves (a later unit that rolls back does not undo it), and a write refused with `StorageConflict` changes nothing. Only a
 * unit makes several writes all-or-nothing: a caller MUST NOT rely on a direct call that writes several
 * rows (`achievements.insert` with requirements, `replaceRequirements`) being undone when it fails part
 * way. Core writes only inside `transaction` (test/support/checked-storage.ts asserts it); the direct
 * form serves reads, the admin CLI and embedders.
 */
export interface StoragePort extends Stores, Partial<ConsoleStores>, StorageUnits<UnitOfWork> {}

/** A storage with the console's stores, which the staff console needs (`requireConsoleStorage`). */
export interface ConsoleStoragePort extends Stores, ConsoleStores, StorageUnits<ConsoleUnitOfWork> {}

/** What a storage does besides its stores, its units of work seeing `Unit`. */
export interface StorageUnits<Unit> {
  /**
   * Runs `work` as one all-or-nothing unit: when it throws (or rejects), every write it made is
   * undone and the same error is rethrown. Units of work MUST be serialisable: no other unit, in this
   * process or another on the same storage, interleaves with it. Reads made outside a unit MUST NOT
   * see a unit's uncommitted writes. Units MUST NOT be nested (the inner call would wait forever).
   * With `{ concurrent: true }` see UnitOptions.
   */
  transaction<T>(work: (tx: Unit) => Promise<T>, options?: UnitOptions): Promise<T>
  /**
   * Optional: calls `listener` soon after a unit of work that queued signing jobs commits, in any
   * process on the storage, so that an idle worker starts at once rather than at its next poll (PostgreSQL:
   * LISTEN/NOTIFY). Returns the function that stops it. A best effort: a wake-up lost (the database away)
   * only leaves the jobs to the next poll. Storages of one process need not have it: the issuer's own
   * signal already wakes its worker.
   */
  watchSigningJobs?(listener: () => void): () => void
  /**
   * Answers one trivial query, for readiness checks: resolves `{ migrated }`, whether every migration
   * this adapter knows is applied to the storage it answers from (`false` when the schema is older, as
   * after an old backup was put in place). MUST reject (StorageUnavailable where the adapter can tell)
   * when the storage cannot answer. It MUST NOT wait for a running unit of work: a long unit does not
   * make the storage unready.
   */
  ping(): Promise<{ migrated: boolean }>
  /** Releases connections. The storage MUST NOT be used afterwards. */
  close(): Promise<void>
}

import type { AchievementTemplate, NewAchievementTemplate, NewRequirement, Requirement } from '../achievements/template.ts'
import type { ApiClient } from '../clients/api-client.ts'
import type { Design, NewDesign, StoredImage } from '../designs/design.ts'
import type { Issuance, NewIssuance, TemplateSnapshot } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { IssuanceStatus } from '../issuances/present.ts'
import type { Club } from '../clubs/club.ts'
import type { ClaimCaps } from '../webhooks/fair-share.ts'
import type { ClientAuthFailureWindow } from '../clients/auth-failure-window.ts'
import type { Admin, AdminLoginFailureWindow } from '../admins/admin.ts'
import type { AdminSession } from '../admins/admin-session.ts'
import type { AdminPasskey, PasskeyChallenge } from '../admins/passkey.ts'
import type { StoredKey } from '../keys/stored-key.ts'
import type { SigningJob } from '../signing-queue/signing-job.ts'
import type { StatusList } from '../status-lists/status-list.ts'
import type { ClubEvent, EventType } from '../events/event.ts'
import type { IdempotencyRecord } from '../idempotency/idempotency-record.ts'
import type { NewOutboxMessage, OutboxMessage } from '../notifications/outbox-message.ts'
import type { NewResendRequest, ResendRequest } from '../issuances/resend-request.ts'
import type { WebhookEndpoint } from '../webhooks/webhook-endpoint.ts'
import type { NewWebhookDelivery, WebhookDelivery } from '../webhooks/webhook-delivery.ts'
import type { ApiKeyRecord } from '../api-keys/api-key.ts'
import type { CsvFile, CsvUpload, CsvUploadProgress, CsvUploadRow } from '../csv-uploads/csv-upload.ts'
import type { ReissueStore } from '../reissues/reissue-store.ts'
import type { IssuanceClaim } from '../issuances/issuance-claim.ts'

// The records below live beside their feature; the port re-exports them, so that an adapter (and the
// package root, which exports every type of this file) finds each record the stores take and return here.
export type { Admin, AdminLoginFailureWindow, AdminSession, AdminPasskey, PasskeyChallenge }
export type { ClientAuthFailureWindow, StoredKey, SigningJob, StatusList, ClubEvent, IdempotencyRecord }
export type { NewOutboxMessage, OutboxMessage, WebhookEndpoint, NewWebhookDelivery, WebhookDelivery, ApiKeyRecord }
export type { CsvFile, CsvUpload, CsvUploadProgress, CsvUploadRow }
export type { ReissueStore }
export type { ReissueRecord, IssuanceAmendment, CredentialVersion, SupersedeOutcome } from '../reissues/reissue-record.ts'
export type { NewResendRequest, ResendRequest }
export type { IssuanceClaim }

/**
 * The storage port. Every method is async so that a network database fits behind it.
 *
 * Contract for all stores:
 * - reads of something absent return `null` (or `[]`), they never throw;
 * - records go in and come out as plain objects (no prototypes, no driver types);
 * - a uniqueness violation MUST surface as `StorageConflict` from `core/errors.ts`, never a driver error.
 */
export interface ClubStore {
  /** Inserts a club. MUST throw `StorageConflict` when the domain exists. */
  insert(club: Club): Promise<void>
  findByDomain(domain: string): Promise<Club | null>
  /** Sets the listed fields. Returns the updated club, `null` when there is no such club. */
  update(domain: string, changes: Partial<Pick<Club, 'name' | 'canIssue' | 'issuerVerified'>>): Promise<Club | null>
  /** Number of clubs; the server bootstraps `demo` when it is 0. */
  count(): Promise<number>
}

export interface ClientStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(client: ApiClient): Promise<void>
  findById(id: string): Promise<ApiClient | null>
  /** The club's clients, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<ApiClient[]>
  /** Replaces the secret hash. Returns `false` when there is no such client. */
  updateSecret(id: string, secretHash: string, secretSetAt: number): Promise<boolean>
  /** Returns `false` when there was no such client. MUST also delete the client's `ClientAuthFailureStore` window. */
  delete(id: string): Promise<boolean>
}

/**
 * Failed client authentications, shared by every node on the storage. Rows exist only for clients that
 * exist, so that sprayed made-up ids cannot grow the store; ended windows are purged by housekeeping.
 */
export interface ClientAuthFailureStore {
  /**
   * Counts one failure of the client in fixed windows: when the client has no window, or its window
   * ended at or before `now` (`endsAt <= now`), a new one starts with `failures: 1` and
   * `endsAt: now + windowMs`; else `failures` goes up by 1 and `endsAt` stays. Returns the window as
   * counted. When no client has this id it MUST write nothing and return `null`. Counting MUST be atomic
   * (one statement, not a read then a write): of N concurrent calls within one window, from any number
   * of processes on the storage, each MUST count once, so the calls return N distinct counts.
   */
  recordFailure(clientId: string, now: number, windowMs: number): Promise<ClientAuthFailureWindow | null>
  /** The client's window when it has not ended at `now` (`endsAt > now`); `null` when absent or ended. */
  find(clientId: string, now: number): Promise<ClientAuthFailureWindow | null>
  /** Deletes the client's window (a successful authentication); harmless when absent. */
  clear(clientId: string): Promise<void>
  /** Deletes every window that ended at or before `now`; returns how many. */
  purgeEnded(now: number): Promise<number>
}

/** Console administrators (docs/admin-console.md). */
export interface AdminStore {
  /** MUST throw `StorageConflict` when the id or the e-mail exists (in any club), also under concurrent inserts. */
  insert(admin: Admin): Promise<void>
  findById(id: string): Promise<Admin | null>
  /** The admin with this (lower-case) e-mail, whatever the club, or `null`. */
  findByEmail(email: string): Promise<Admin | null>
  /** The admin whose outstanding setup token hashes to this, or `null` (expiry is the caller's to check). */
  findBySetupTokenHash(tokenHash: string): Promise<Admin | null>
  /** The club's admins, by e-mail; `[]` when none. */
  listByClub(club: string): Promise<Admin[]>
  /**
   * Replaces the setup token and clears the password (a reset: the old link and the old password stop
   * working). Returns `false`, changing nothing, when there is no such admin.
   */
  resetSetup(id: string, tokenHash: string, expiresAt: number): Promise<boolean>
  /**
   * Sets the password hash and clears the setup token, only while the token is still `tokenHash`: of two
   * concurrent uses of one link at most one returns `true`.
   */
  setPassword(id: string, tokenHash: string, passwordHash: string): Promise<boolean>
  /**
   * Replaces the admin's password hash with `passwordHash` if it is still `currentHash` (a rehash at
   * login under new parameters: a reset or another rehash in between wins). Returns whether it did.
   */
  replacePasswordHash(id: string, currentHash: string, passwordHash: string): Promise<boolean>
  /** Deletes the admin. MUST also delete its sessions, its failure window and its passkeys. Returns `false` when absent. */
  delete(id: string): Promise<boolean>
  /**
   * Counts a failed login of the admin, with the contract of `ClientAuthFailureStore.recordFailure`
   * (fixed windows, atomic: N concurrent calls in one window return N distinct counts). `null`, writing
   * nothing, when there is no such admin.
   */
  recordLoginFailure(id: string, now: number, windowMs: number): Promise<AdminLoginFailureWindow | null>
  /** The admin's window when it has not ended at `now`; `null` when absent or ended. */
  findLoginFailures(id: string, now: number): Promise<AdminLoginFailureWindow | null>
  /** Forgets the admin's failures (a successful login); harmless when none. */
  clearLoginFailures(id: string): Promise<void>
}

/** Console sessions, shared by every node on the storage. */
export interface AdminSessionStore {
  /** MUST throw `StorageConflict` when the id hash exists. */
  insert(session: AdminSession): Promise<void>
  findByIdHash(idHash: string): Promise<AdminSession | null>
  /** Sets `lastSeenAt`; `false` when the session is gone. */
  touch(idHash: string, lastSeenAt: number): Promise<boolean>
  /** Ends one session; `false` when it was gone already. */
  delete(idHash: string): Promise<boolean>
  /** Ends every session of the admin; returns how many. */
  deleteByAdmin(adminId: string): Promise<number>
  /** Deletes every session idle since before `idleBefore` or created before `createdBefore`; returns how many. */
  purgeEnded(idleBefore: number, createdBefore: number): Promise<number>
}

/** The console admins' passkeys (WebAuthn credentials). */
export interface AdminPasskeyStore {
  /** MUST throw `StorageConflict` when the id or the credential id exists (for any admin), also under concurrent inserts. */
  insert(passkey: AdminPasskey): Promise<void>
  /** The passkey of this credential id, whatever its admin, or `null`. */
  findByCredentialId(credentialId: string): Promise<AdminPasskey | null>
  /** The admin's passkeys, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByAdmin(adminId: string): Promise<AdminPasskey[]>
  /** Records a login with the passkey: its new counter and `lastUsedAt`. `false` when it is gone. */
  recordUse(id: string, counter: number, usedAt: number): Promise<boolean>
  /** Deletes the admin's passkey of this id; `false`, changing nothing, when that admin has none of this id. */
  delete(adminId: string, id: string): Promise<boolean>
  /** Deletes every passkey of the admin (a reset); returns how many. */
  deleteByAdmin(adminId: string): Promise<number>
}

/** Challenges of passkey ceremonies, shared by every node on the storage; each works once. */
export interface PasskeyChallengeStore {
  /**
   * Stores a challenge. MUST throw `StorageConflict` when it exists. MAY delete challenges that expired at
   * or before `now`. With `keep`, MUST then leave at most `keep` challenges of the challenge's purpose
   * unexpired at `now`, deleting those that expire first; concurrent inserts MAY each leave `keep`, and
   * so briefly a few more in all, never without bound.
   */
  insert(challenge: PasskeyChallenge, now: number, keep?: number): Promise<void>
  /**
   * Deletes the challenge and returns it as stored: of concurrent calls for one challenge, from any
   * number of processes, at most one gets it. `null` when absent (used, never given, or purged); the
   * expiry is the caller's to check.
   */
  consume(challenge: string): Promise<PasskeyChallenge | null>
}

/** The staff console's CSV uploads and each row's outcome (docs/admin-console.md § Issuing by CSV). */
export interface CsvUploadStore {
  /**
   * Inserts the upload unless the club has one with its `key`; returns the club's upload with that key,
   * this one or the earlier one. Concurrent calls with one club and key MUST insert one upload and all
   * return it.
   */
  claim(upload: CsvUpload): Promise<CsvUpload>
  /** The club's upload with this id, or `null` (another club's id is `null` too). */
  findById(club: string, id: string): Promise<CsvUpload | null>
  /**
   * Records rows' outcomes. A row (upload, line) recorded already is kept as it was, also under
   * concurrent calls: a retried chunk records nothing twice.
   */
  insertRows(rows: CsvUploadRow[]): Promise<void>
  /** The upload's rows in line order; `[]` when none. */
  listRows(uploadId: string): Promise<CsvUploadRow[]>
  /** Rows recorded, issued, and issued whose issuance has its credential (signed); zeros when none. */
  progress(uploadId: string): Promise<CsvUploadProgress>
  /**
   * Keeps a previewed file under its club and digest. A file kept already under them is kept with this
   * `createdAt` (previewed again, it lives a day from now); concurrent calls MUST NOT throw.
   */
  putFile(file: CsvFile): Promise<void>
  /** The club's file with this digest, or `null` (another club's file under the same digest too). */
  findFile(club: string, digest: string): Promise<CsvFile | null>
  /** Removes the club's file with this digest; `false` when there was none. */
  deleteFile(club: string, digest: string): Promise<boolean>
  /** Removes every file kept before `createdBefore` (strictly), of every club; returns how many. */
  purgeFiles(createdBefore: number): Promise<number>
}

export interface KeyRecordStore {
  /**
   * Inserts a key. When `key.active`, it MUST throw `StorageConflict` if the owner already has an
   * active key: at most one active key per owner, also under concurrent inserts.
   */
  insert(key: StoredKey): Promise<void>
  /** The owner's active key, or `null`. */
  findActive(owner: string): Promise<StoredKey | null>
  findByKid(kid: string): Promise<StoredKey | null>
  /** Every key of the owner, oldest first (createdAt, then kid). */
  listByOwner(owner: string): Promise<StoredKey[]>
  /**
   * The active key of every owner that has one, ordered by owner; `[]` when none. The start-up check
   * opens each with the master key (docs/backup.md § A wrong master key).
   */
  listActive(): Promise<StoredKey[]>
  /** Marks every key of the owner inactive. */
  deactivateAll(owner: string): Promise<void>
}

/** Keyset page request: rows strictly below `beforeId` (all when `null`), highest id first. */
export interface KeysetPage {
  limit: number
  beforeId: number | null
}

export interface AchievementStore {
  /**
   * Inserts a template and its requirements with fresh ids, returning the stored template. Template
   * and requirement ids MUST increase and MUST never be reused, also after deletions.
   */
  insert(template: NewAchievementTemplate): Promise<AchievementTemplate>
  /** The club's template with this id, requirements included (in any order), or `null`. */
  findById(club: string, id: number): Promise<AchievementTemplate | null>
  /**
   * Writes every field of `template` except `id`, `club`, `requirements`, `issuedCount` and `createdAt`.
   * Returns `false` when there is no such template.
   */
  update(template: AchievementTemplate): Promise<boolean>
  /** Deletes the template's requirements and inserts these with fresh ids; returns them. */
  replaceRequirements(templateId: number, requirements: NewRequirement[]): Promise<Requirement[]>
  /** The club's templates, highest id (newest) first, keyset-paged; `[]` when none. */
  list(club: string, page: KeysetPage): Promise<AchievementTemplate[]>
  /** How many templates the club has. */
  countByClub(club: string): Promise<number>
  /** Adds `by` to the template's `issuedCount`. */
  incrementIssuedCount(templateId: number, by: number): Promise<void>
}

export interface SnapshotStore {
  /** Stores a template snapshot with a fresh id; returns the id. */
  insert(snapshot: Omit<TemplateSnapshot, 'id'>): Promise<number>
  findById(id: number): Promise<TemplateSnapshot | null>
}

/** Keyset page request of issuances: rows strictly below `beforeSequence` (all when `null`), highest sequence first. */
export interface IssuancePage {
  limit: number
  beforeSequence: number | null
  /** Only this template's issuances; all when `null` or absent. */
  achievementId?: number | null
}

/** Whom `IssuanceStore.search` looks for: one recipient field (docs/admin-console.md § Issuances). */
export type RecipientMatch =
  /** The whole e-mail, compared case-insensitively as `findHeld` compares it. */
  | { by: 'email'; value: string }
  /** The whole external user id, exactly. */
  | { by: 'externalUserId'; value: string }
  /** Names whose key (`nameKey`, core/issuances/name-key.ts) starts with the key of `value`. */
  | { by: 'name'; value: string }

/** What `IssuanceStore.search` filters by; `null` means no filter of that kind. */
export interface IssuanceSearch {
  limit: number
  /** The sequence of the previous page's last issuance; `null` for the first page. */
  afterSequence: number | null
  achievementId: number | null
  status: IssuanceStatus | null
  /** The time `expired` and `valid` are judged at (ms). */
  now: number
  recipient: RecipientMatch | null
  /**
   * Only issuances a wallet has taken (`true`: with a claim in `IssuanceClaimStore`) or not taken
   * (`false`); both when `null` or absent.
   */
  claimed?: boolean | null
  /**
   * Only issuances that expire soon: `valid` at `now` and with a `validUntil` at or before this time (ms);
   * all when `null` or absent. Read through the club's (or template's) index of issuances that can expire.
   */
  expiresBefore?: number | null
}

/** What `IssuanceStore.countByStatus` returns. */
export interface IssuanceCounts {
  total: number
  pending: number
  revoked: number
  expired: number
}

export interface IssuanceStore {
  /**
   * Inserts the issuance under the caller's `id` (random: `core/issuances/issuance-id.ts`) and gives it
   * the next `sequence`; returns the stored issuance. MUST throw `StorageConflict` when the id exists:
   * a constraint, not a check, so that of concurrent inserts with one id exactly one succeeds.
   * Sequences MUST be distinct and increase in the order units of work commit, also under concurrent
   * inserts, and MUST never be reused.
   */
  insert(issuance: NewIssuance): Promise<Issuance>
  /**
   * `insert` of each issuance in turn, in one go: sequences increase in the order given. One
   * whose id exists (also earlier in this call) is skipped, storing nothing for it, and the others are
   * stored; the result holds, at each issuance's place, the stored issuance or `null` when skipped.
   */
  insertMany(issuances: NewIssuance[]): Promise<(Issuance | null)[]>
  findById(club: string, id: number): Promise<Issuance | null>
  /** The issuance with this id whatever its club (the public verification surface), or `null`. */
  findByIdAcrossClubs(id: number): Promise<Issuance | null>
  /** The club's issuances with these ids (those that exist), any order. */
  findByIds(club: string, ids: number[]): Promise<Issuance[]>
  /**
   * For each recipient, the club's issuances of this template it holds: matched by `externalUserId` when
   * that is not null, else by e-mail compared case-insensitively. One entry per recipient, in their
   * order, each in any order and `[]` when none: a batch asks for all its recipients at once.
   */
  findHeld(club: string, achievementId: number, recipients: readonly HeldCheck[]): Promise<Issuance[][]>
  /** The club's issuances, highest sequence (newest) first, keyset-paged, optionally of one template only. */
  list(club: string, page: IssuancePage): Promise<Issuance[]>
  /**
   * The club's issuances counted by status at `now`, by the rule of `search`: `revoked`, `pending`,
   * `expired`; `total` counts every issuance.
   */
  countByStatus(club: string, now: number): Promise<IssuanceCounts>
  /**
   * The club's issuances that pass every filter of `query`, at most `limit`: of one template, of one
   * recipient, of one status at `now`. The status is `issuanceStatus`'s (core/issuances/present.ts):
   * - `revoked`: revoked, whether or not signed;
   * - `pending`: not revoked, without a credential, and queued for signing. Core queues a signing job
   *   with every issuance and removes it in the unit that stores the credential, so this is every
   *   issuance without a credential; the queue is what makes it an index walk, not a scan of the club;
   * - `expired`: not revoked, with a credential, and the issuance's `validUntilOf(expiresAt)`
   *   (core/credentials/valid-until.ts, the credential's `validUntil`) at or before `now`;
   * - `valid`: not revoked, with a credential, and no such time or one after `now`.
   *
   * Order: highest sequence (newest) first; when searching a name, by the names' keys (code point by
   * code point) and each key's newest first. Keyset-paged: a page holds what follows, in that order, the
   * position of the issuance whose sequence is `afterSequence`; searching a name, that position is the
   * issuance's name too, and nothing follows a sequence that is no issuance of the club.
   * A page MUST be read through indexes at a cost that does not grow with the club's issuances that it
   * passes over, as far as docs/decisions/0039-issuance-search.md says each filter can be.
   */
  search(club: string, query: IssuanceSearch): Promise<Issuance[]>
  /** Sets `revokedAt` and `revocationReason` when not yet revoked. Returns `true` when it changed the row. */
  revoke(club: string, id: number, revokedAt: number, reason: string | null): Promise<boolean>
}

export interface CredentialStore {
  /**
   * Stores the signed credentials of a signing round. One that conflicts (its id exists, or its issuance
   * has a credential, also one earlier in this call) is skipped, not thrown, and the others are stored:
   * a constraint, not a check, so that of workers racing to store a credential for one issuance exactly
   * one stores it. Returns the issuance ids of those stored, in any order.
   */
  insertMany(credentials: CredentialRecord[]): Promise<number[]>
  findById(id: string): Promise<CredentialRecord | null>
  findByIssuance(issuanceId: number): Promise<CredentialRecord | null>
  /** The credentials of these issuances (those that have one), any order. */
  findByIssuances(issuanceIds: number[]): Promise<CredentialRecord[]>
  /** The status-list indexes, in list `statusListId`, of credentials whose issuance is revoked; any order. */
  listRevokedIndexes(statusListId: number): Promise<number[]>
  /**
   * Leases, for the proof round, up to `limit` credentials whose proof is still to be made (`proof`
   * null) and whose proof lease has ended (never claimed, or its lease ended before `now`), oldest first:
   * each is held until `now + leaseMs` and counts an attempt; returned with the attempts counted so far,
   * this one included. A credential MUST NOT be returned by two claims while its lease runs, also under
   * concurrent claims (concurrent units) from several processes on the storage: those claims pass over
   * the credentials another holds rather than wait for it. A lease that ends (its worker died) makes the
   * credential claimable again.
   */
  claimUnproven(now: number, leaseMs: number, limit: number): Promise<{ credential: CredentialRecord; attempts: number }[]>
  /**
   * Records a failed proof of these credentials (ids without a credential, or whose proof is made, are
   * ignored): the proof stays to be made, `error` is kept for operators, and none is claimed again
   * before `retryAt`.
   */
  releaseUnproven(ids: string[], error: string, retryAt: number): Promise<void>
  /**
   * Stores each proof on its credential if that credential's proof is still to be made (`proof` null),
   * whoever holds its lease: a proof once stored never changes, as the credential does not. Returns how
   * many it stored.
   */
  storeProofs(proofs: { id: string; proof: string }[]): Promise<number>
}

export interface ResendStore {
  /** Stores the request with a fresh id, increasing from call to call; returns it as stored. */
  insert(request: NewResendRequest): Promise<ResendRequest>
  /**
   * The club's requests for this issuance made after `since` (strictly), oldest first; `[]` when none.
   * Core counts them and inserts in one unit of the club, which units' serialisability makes a limit
   * that holds across nodes.
   */
  listSince(club: string, issuanceId: number, since: number): Promise<ResendRequest[]>
  /** Up to `limit` requests not mailed yet (`mailedAt` null) whose issuance has a credential, oldest (lowest id) first. */
  listMailable(limit: number): Promise<ResendRequest[]>
  /**
   * Sets `mailedAt` when it is still null; returns `true` when it changed the row. Of concurrent calls
   * for one request (workers on several nodes) exactly one MUST get `true`. An unknown id is `false`.
   */
  markMailed(id: number, mailedAt: number): Promise<boolean>
}

/** Wallets taking credentials (docs/api.md §2.6 `claims`, docs/decisions/0047-claims-and-expiry.md). */
export interface IssuanceClaimStore {
  /**
   * Stores the claim. Returns `true` when it is the issuance's first claim, else `false`: of concurrent
   * calls for one issuance, from any number of processes on the storage, exactly one MUST return `true`
   * (a constraint, not a check), and every claim is stored.
   */
  record(claim: IssuanceClaim): Promise<boolean>
  /** The issuance's claims, oldest first (`at`, then the order stored); `[]` when none. */
  listByIssuance(issuanceId: number): Promise<IssuanceClaim[]>
}

/** Where a sweep of `ExpiryStore` has got to: the last issuance it passed, by `validUntil` (or none) and sequence. */
export interface SweepPosition {
  at: number
  sequence: number
}

/**
 * What the expiry sweeps read and write (core/issuances/expiry-sweep.ts, docs/decisions/0047-claims-and-expiry.md):
 * positions shared by every node, the issuances due, and each notice recorded once.
 */
export interface ExpiryStore {
  /** The named sweep's position; `null` before it first ran. */
  position(sweep: string): Promise<SweepPosition | null>
  /** Moves the named sweep to `position`, or keeps the one stored when that is further (by `at`, then `sequence`). */
  advance(sweep: string, position: SweepPosition): Promise<void>
  /** The issuances with a sequence above `afterSequence`, lowest first, at most `limit`, of every club. */
  listIssuedAfter(afterSequence: number, limit: number): Promise<Issuance[]>
  /**
   * The issuances not revoked whose `validUntilOf(expiresAt)` (its `validUntil`) follows `after` (a later
   * time, or the same time and a higher sequence) and is at or before `until`, ordered by that time then
   * sequence, at most `limit`, of every club. MUST be read through an index in that order, so that a
   * sweep costs what it finds, not the number of issuances stored.
   */
  listValidUntil(after: SweepPosition, until: number, limit: number): Promise<Issuance[]>
  /**
   * Records that the issuance got `notice` (`expired`, or a reminder's duration). Returns `true` when it
   * is new, `false` when recorded already: of concurrent calls for one issuance and notice, from any
   * number of processes, exactly one MUST return `true` (a constraint, not a check).
   */
  recordNotice(issuanceId: number, notice: string, at: number): Promise<boolean>
  /** The notices the issuance got, oldest first; `[]` when none. */
  listNotices(issuanceId: number): Promise<{ notice: string; at: number }[]>
  /** Every club's templates that have expiry reminders, by id; `[]` when none. */
  listTemplatesWithReminders(): Promise<{ id: number; club: string; expiryReminders: string[] }[]>
}

/** Share page views per credential (core/verification/share-view-counter.ts): a number, never who viewed. */
export interface ShareViewStore {
  /**
   * Adds each count to the credential's stored views and keeps the later `lastViewedAt`. Each row MUST be
   * one atomic statement: counts added at once from several processes all add up.
   */
  add(counts: { credentialId: string; views: number; lastViewedAt: number }[]): Promise<void>
  /** The credential's views and last view (ms); `null` when never counted. */
  find(credentialId: string): Promise<{ views: number; lastViewedAt: number } | null>
}

/** Weeks of a club's activity, for the console's overview chart (docs/admin-console.md § Overview). */
export interface ActivityStore {
  /**
   * Per week `i` of `weeks`, the time range `[from + i·weekMs, from + (i+1)·weekMs)`: the club's issuances
   * made in it (`createdAt`), first claims in it (`IssuanceClaimStore`), and issuances not revoked whose
   * `validUntilOf(expiresAt)` falls in it. Arrays of `weeks` counts, zeros where none. MUST be read
   * through indexes of those times, not by walking every issuance of the club.
   */
  weekly(club: string, from: number, weekMs: number, weeks: number): Promise<{ issued: number[]; claimed: number[]; expiring: number[] }>
}

export interface SigningJobStore {
  /** Queues a fresh job (no lease, no slot, no attempt) per issuance. MUST throw `StorageConflict`, storing none, when an issuance has a job already. */
  enqueueMany(jobs: { issuanceId: number; club: string }[]): Promise<void>
  /**
   * Leases up to `limit` jobs that are free or whose lease ended before `now`, lowest issuance sequence
   * (oldest issuance) first:
   * sets `leaseUntil = now + leaseMs` and increments `attempts`. Inside a unit of work, concurrent claims
   * MUST NOT return the same job.
   */
  claim(now: number, leaseMs: number, limit: number): Promise<SigningJob[]>
  /** Records on each job the status-list slot reserved for its credential; jobs that do not exist are ignored. */
  reserveStatusSlots(slots: { issuanceId: number; statusListId: number; statusListIndex: number }[]): Promise<void>
  /** Frees a job's lease after a failure, recording the error; it is retried at `retryAt`. */
  release(issuanceId: number, error: string, retryAt: number): Promise<void>
  /** Removes the job (its credential is stored). */
  complete(issuanceId: number): Promise<void>
  /** `complete` of each of these jobs, in one go; ids without a job are ignored. */
  completeMany(issuanceIds: number[]): Promise<void>
  /** Number of jobs not yet completed. */
  count(): Promise<number>
  /**
   * The queue at a glance, for readiness and metrics: `depth`, the jobs not yet completed (as `count`),
   * and `oldestCreatedAt`, the `createdAt` of the oldest issuance among them (ms), `null` when there is
   * none. A read: it MUST NOT wait for a lease or change any job.
   */
  countBacklog(): Promise<SigningBacklog>
}

export interface SigningBacklog {
  depth: number
  oldestCreatedAt: number | null
}

export interface StatusListStore {
  /** Creates a list with a fresh id; returns it. */
  insert(list: Omit<StatusList, 'id' | 'allocated'>): Promise<StatusList>
  /** The club's newest list of this purpose, or `null`. */
  current(club: string, purpose: 'revocation'): Promise<StatusList | null>
  /** The club's lists, oldest first. */
  listByClub(club: string): Promise<StatusList[]>
  /**
   * Takes up to `count` consecutive slot positions of the list, starting at `allocated`, and advances
   * `allocated` past them; `null` when the list is full or absent. MUST never hand out one position twice.
   */
  takeSlots(listId: number, count: number): Promise<{ first: number; count: number } | null>
}

export interface EventStore {
  /** Appends with a fresh, increasing id; returns it. */
  append(event: Omit<ClubEvent, 'id'>): Promise<number>
  /** `append` of each event in turn, in one go: fresh ids, increasing in the order given; returns them in that order. */
  appendMany(events: Omit<ClubEvent, 'id'>[]): Promise<number[]>
  /** The club's events, highest id (newest) first, keyset-paged. */
  list(club: string, page: KeysetPage): Promise<ClubEvent[]>
  /**
   * The club's events about one subject and of one of `types`, highest id (newest) first, at most
   * `limit`; `[]` when none. Read through an index: its cost does not grow with the club's other events.
   */
  listBySubject(club: string, subject: ClubEvent['subject'], types: readonly EventType[], limit: number): Promise<ClubEvent[]>
}

export interface IdempotencyStore {
  find(scope: string, key: string): Promise<IdempotencyRecord | null>
  /** MUST throw `StorageConflict` when (scope, key) exists. */
  insert(record: IdempotencyRecord): Promise<void>
  complete(scope: string, key: string, response: { status: number; body: string }): Promise<void>
  delete(scope: string, key: string): Promise<void>
  /** Deletes records whose `expiresAt` is before `now`; returns how many. */
  purgeExpired(now: number): Promise<number>
}

export interface OutboxStore {
  /** Stores each message with a fresh id, increasing in the order given; returns the ids in that order. */
  enqueueMany(messages: NewOutboxMessage[]): Promise<number[]>
  /**
   * Leases up to `limit` unsent messages due at `now` with fewer than `maxAttempts` attempts: sets
   * `nextAttemptAt = now + leaseMs` and increments `attempts`. Oldest first.
   */
  claimDue(now: number, leaseMs: number, limit: number, maxAttempts: number): Promise<OutboxMessage[]>
  /** Records `sentAt`: the message is never claimed again. */
  markSent(id: number, sentAt: number): Promise<void>
  /** Records the error; the message keeps its attempts and is due again at `nextAttemptAt`. */
  markFailed(id: number, error: string, nextAttemptAt: number): Promise<void>
}

export interface WebhookEndpointStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(endpoint: WebhookEndpoint): Promise<void>
  findById(id: string): Promise<WebhookEndpoint | null>
  /** The club's endpoints, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<WebhookEndpoint[]>
  /** Sets the listed fields; returns the updated endpoint, `null` (changing nothing) when absent. */
  update(
    id: string,
    changes: Partial<
      Pick<WebhookEndpoint, 'url' | 'events' | 'enabled' | 'sealedSecret' | 'previousSealedSecret' | 'previousSecretUntil' | 'consecutiveGiveUps'>
    >,
  ): Promise<WebhookEndpoint | null>
  /** Deletes the endpoint and MUST delete its deliveries with it. Returns `false` when there was none. */
  delete(id: string): Promise<boolean>
}

export interface WebhookDeliveryStore {
  /** Stores each delivery with a fresh id, increasing in the order given, 0 attempts and no lease; returns the ids in that order. */
  enqueueMany(deliveries: NewWebhookDelivery[]): Promise<number[]>
  /**
   * Leases up to `limit` deliveries that are neither delivered nor given up, due (`nextAttemptAt <= now`),
   * not leased (`leaseUntil` null or `<= now`) and whose endpoint is enabled, chosen and returned in the
   * order of `pickFairly` (core/webhooks/fair-share.ts), which the adapter calls with every endpoint that
   * has a delivery due or leased at `now` and its count of those leased: so that no endpoint holds more
   * than `caps.perEndpoint` leased deliveries and no club more than `caps.perClub`, and free slots go to
   * the club, then the endpoint, with the fewest in flight. Sets `leaseUntil = now + leaseMs` and
   * increments `attempts`. A delivery MUST NOT be returned by two claims while its lease runs, also with
   * claims from several processes on the storage; and, claims being made in units of work, the caps
   * MUST hold over every process at once.
   */
  claimDue(now: number, leaseMs: number, limit: number, caps: ClaimCaps): Promise<WebhookDelivery[]>
  /** Ends the delivery as delivered and frees its lease. */
  markDelivered(id: number, at: number, status: number): Promise<void>
  /** Frees the lease after a failed attempt, recording it; the delivery is due again at `nextAttemptAt`. */
  markFailed(id: number, failure: { status: number | null; error: string; nextAttemptAt: number }): Promise<void>
  /** Ends the delivery as given up, recording the last failure, and frees its lease. */
  markGivenUp(id: number, at: number, failure: { status: number | null; error: string }): Promise<void>
  /** The endpoint's deliveries, highest id (newest) first, at most `limit`, strictly below `beforeId` when set; `[]` when none. */
  listByEndpoint(endpointId: string, limit: number, beforeId?: number | null): Promise<WebhookDelivery[]>
}

export interface DesignStore {
  /** Inserts with a fresh id, higher than any handed out before; returns the stored design. */
  insert(design: NewDesign): Promise<Design>
  /** The club's design with this id; `null` when absent or of another club. */
  findById(club: string, id: number): Promise<Design | null>
  /**
   * Writes `name`, `image`, `layout` and `updatedAt`; `kind` and `createdAt` stay as inserted. Returns
   * `false`, changing nothing, when the club has no design with this id.
   */
  update(design: Design): Promise<boolean>
  /** The club's designs, highest id first, at most `limit`, strictly below `beforeId` when set; `[]` when none. */
  list(club: string, page: KeysetPage): Promise<Design[]>
}

export interface ApiKeyStore {
  /** MUST throw `StorageConflict` when the id exists. */
  insert(key: ApiKeyRecord): Promise<void>
  findById(id: string): Promise<ApiKeyRecord | null>
  /** The club's keys, revoked ones included, oldest first (`createdAt`, then `id`); `[]` when none. */
  listByClub(club: string): Promise<ApiKeyRecord[]>
  /** Sets `revokedAt` when the key exists and is not revoked yet. Returns `true` when it changed the row. */
  revoke(id: string, revokedAt: number): Promise<boolean>
}

export interface ImageStore {
  /**
   * Stores an image under its hash (the SHA-256 of its bytes, so one hash means one content). Storing
   * the same image again is a no-op: it MUST NOT throw, also under concurrent calls, and changes nothing.
   */
  put(image: StoredImage): Promise<void>
  /** The image with this hash, its bytes a plain `Uint8Array` the caller may change; `null` when absent. */
  findByHash(hash: string): Promise<StoredImage | null>
}

/** The stores a unit of work sees. */
export interface Stores {
  clubs: ClubStore
  clients: ClientStore
  clientAuthFailures: ClientAuthFailureStore
  admins: AdminStore
  adminSessions: AdminSessionStore
  adminPasskeys: AdminPasskeyStore
  passkeyChallenges: PasskeyChallengeStore
  csvUploads: CsvUploadStore
  keys: KeyRecordStore
  achievements: AchievementStore
  snapshots: SnapshotStore
  issuances: IssuanceStore
  credentials: CredentialStore
  claims: IssuanceClaimStore
  expiry: ExpiryStore
  shareViews: ShareViewStore
  activity: ActivityStore
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

/** Who an already-issued check asks about: the recipient's externalUserId, else its e-mail. */
export interface HeldCheck {
  externalUserId: string | null
  email: string
}

/** The stores as seen inside a transaction. */
export type UnitOfWork = Stores

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
 * from committed state beside it (PostgreSQL, where reads run in parallel with units). A write is committed when its promise resolves (a later unit
 * that rolls back does not undo it), and a write refused with `StorageConflict` changes nothing. Only a
 * unit makes several writes all-or-nothing: a caller MUST NOT rely on a direct call that writes several
 * rows (`achievements.insert` with requirements, `replaceRequirements`) being undone when it fails part
 * way. Core writes only inside `transaction` (test/support/checked-storage.ts asserts it); the direct
 * form serves reads, the admin CLI and embedders.
 */
export interface StoragePort extends Stores {
  /**
   * Runs `work` as one all-or-nothing unit: when it throws (or rejects), every write it made is
   * undone and the same error is rethrown. Units of work MUST be serialisable: no other unit, in this
   * process or another on the same storage, interleaves with it. Reads made outside a unit MUST NOT
   * see a unit's uncommitted writes. Units MUST NOT be nested (the inner call would wait forever).
   * With `{ concurrent: true }` see UnitOptions.
   */
  transaction<T>(work: (tx: UnitOfWork) => Promise<T>, options?: UnitOptions): Promise<T>
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

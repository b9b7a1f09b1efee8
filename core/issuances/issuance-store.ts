import type { Issuance, NewIssuance } from './issuance.ts'
import type { IssuanceStatus } from './present.ts'

/** Keyset page request of issuances: rows strictly below `beforeSequence` (all when `null`), highest sequence first. */
export interface IssuancePage {
  limit: number
  beforeSequence: number | null
  /** Only this template's issuances; all when `null` or absent. */
  achievementId?: number | null
}

/** Whom `IssuanceStore.search` looks for: one recipient field (docs/admin-console.md § Issuances). */
export type RecipientMatch =
  /** The whole e-mail, compared as `findHeld` compares it. */
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
   * that is not null, else by e-mail under `sameRecipientEmail` (core/issuances/recipient-email.ts):
   * equal once ASCII letters are lower-cased, every other character as it is, whatever the database's
   * collation (`Kim@Example.COM` is `kim@example.com`, `ÄBC@example.com` is not `äbc@example.com`). One
   * entry per recipient, in their order, each in any order and `[]` when none: a batch asks for all its
   * recipients at once.
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

/** Who an already-issued check asks about: the recipient's externalUserId, else its e-mail. */
export interface HeldCheck {
  externalUserId: string | null
  email: string
}

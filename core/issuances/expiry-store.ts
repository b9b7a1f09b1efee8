import type { Issuance } from './issuance.ts'

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

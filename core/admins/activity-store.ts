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

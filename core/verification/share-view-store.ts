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

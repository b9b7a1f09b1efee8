/** A legacy API key (docs/api.md §5 item 7): the secret is stored only as a hash. */
export interface ApiKeyRecord {
  id: string
  club: string
  secretHash: string
  createdAt: number
  /** When the key was revoked (ms), or `null`; a revoked key is kept so that the list shows when. */
  revokedAt: number | null
}

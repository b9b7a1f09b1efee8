import type { ScopeName } from '../scopes.ts'

/** An API client: the credential unit bound to one club. docs/api.md §2.2. */
export interface ApiClient {
  id: string
  club: string
  /** `sha256$<base64url>` of the secret; the secret itself is never stored. */
  secretHash: string
  scopes: ScopeName[]
  /**
   * When the current secret was set (ms). Tokens obtained with an earlier secret are refused: they carry
   * a binding to the secret hash (`core/tokens/secret-binding.ts`).
   */
  secretSetAt: number
  createdAt: number
}

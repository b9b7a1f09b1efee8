import type { ScopeName } from '../scopes.ts'

/** Who is calling, as proven by a verified access token. */
export interface Principal {
  clientId: string
  club: string
  scopes: ScopeName[]
  /** The token's `jti`. */
  tokenId: string
}

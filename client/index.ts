/**
 * @module clubcred/client: a typed client of a clubcred server on `fetch`, for integrators. Tokens
 * (client credentials, refreshed before expiry), automatic `Idempotency-Key`s on issue and revoke,
 * async iteration over cursor lists, waiting for credentials on the event feed, and problem documents
 * as typed errors. It carries no server code: from the rest of clubcred it imports types only.
 *
 * @example
 * import { createClubcredClient } from 'clubcred/client'
 * const client = createClubcredClient({ baseUrl: 'http://localhost:8787', clientId, clientSecret, club: 'demo' })
 * const { data } = await client.issuances.list({ limit: 10 })
 */
export {
  createClubcredClient,
  type ClubcredClient,
  type ClubcredClientOptions,
  type IdempotencyOptions,
  type IssuanceListOptions,
  type IterateOptions,
  type ListOptions,
  type RevokeOptions,
} from './create-client.ts'
export {
  ClubcredAuthError,
  ClubcredError,
  ClubcredTimeoutError,
  isProblem,
  type ClubcredAuthErrorCode,
  type ClubcredErrorCode,
  type ProblemDocument,
} from './errors.ts'
export { basicAuthorization, type FetchLike } from './token-source.ts'
export type { WaitOptions } from './wait-for-credentials.ts'
export type * from './types.ts'

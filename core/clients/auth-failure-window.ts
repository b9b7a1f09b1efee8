/** A fixed window of failed authentications of one client (docs/decisions/0005-client-authentication-rate-limit.md). */
export interface ClientAuthFailureWindow {
  clientId: string
  /** Failures counted in this window, at least 1. */
  failures: number
  /** When the window ends (ms); from then on the next failure starts a new window. */
  endsAt: number
}

import { ClubcredAuthError, type ClubcredAuthErrorCode } from './errors.ts'
import type { ScopeName } from './types.ts'

/** `fetch` as the client calls it: one `Request` in, one `Response` out (the global fetch fits). */
export type FetchLike = (request: Request) => Promise<Response>

/** Options of {@link createTokenSource}. */
export interface TokenSourceOptions {
  /** `{auth_url}/token` */
  tokenUrl: string
  clientId: string
  clientSecret: string
  /** Scope names to ask for; absent: every scope the client holds. */
  scopes: readonly ScopeName[] | undefined
  fetch: FetchLike
  /** Milliseconds since the epoch. */
  now: () => number
  /** Refresh when less than this remains of the token's life (capped at half the life). */
  refreshMarginMs: number
}

/** Access tokens of one client: fetched on demand, kept, refreshed before they expire. */
export interface TokenSource {
  /** A token with more than the margin left; concurrent callers share one token request. */
  get(): Promise<string>
  /** Drops `token` (the server refused it), unless a newer one replaced it already. */
  invalidate(token: string): void
}

/**
 * The client credentials grant (docs/api.md §4.1, RFC 6749 §4.4) with HTTP Basic client authentication. Expiry
 * is judged by the injected clock from `expires_in`, counted from when the request was sent, so that a
 * slow answer errs towards refreshing early.
 */
export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const { tokenUrl, clientId, clientSecret, scopes, fetch, now, refreshMarginMs } = options
  let current: { token: string; refreshAt: number } | null = null
  let pending: Promise<string> | null = null

  async function request(): Promise<string> {
    const sentAt = now()
    const form = new URLSearchParams({ grant_type: 'client_credentials' })
    if (scopes !== undefined) form.set('scope', scopes.map((name) => `svc:openapi:${name}`).join(' '))
    const response = await fetch(
      new Request(tokenUrl, {
        method: 'POST',
        headers: {
          authorization: basicAuthorization(clientId, clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
      }),
    )
    const text = await response.text()
    let body: Record<string, unknown> | undefined
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      body = undefined
    }
    if (!response.ok || typeof body?.access_token !== 'string') {
      const error = typeof body?.error === 'string' ? (body.error as ClubcredAuthErrorCode) : 'unexpected_response'
      const description =
        typeof body?.error_description === 'string' ? body.error_description : `The token endpoint answered ${response.status}: ${text.slice(0, 200)}`
      throw new ClubcredAuthError(response.status, error, description)
    }
    const lifeMs = (typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 0) * 1000
    const token = body.access_token
    current = { token, refreshAt: sentAt + lifeMs - Math.min(refreshMarginMs, lifeMs / 2) }
    return token
  }

  return {
    get() {
      if (current && now() < current.refreshAt) return Promise.resolve(current.token)
      pending ??= request().finally(() => {
        pending = null
      })
      return pending
    },
    invalidate(token) {
      if (current?.token === token) current = null
    },
  }
}

/**
 * `Authorization: Basic` as RFC 6749 §2.3.1 says: client id and secret each form-urlencoded
 * (application/x-www-form-urlencoded, so a space is `+`), joined by `:`, then base64.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return `Basic ${btoa(`${encode(clientId)}:${encode(clientSecret)}`)}`
}

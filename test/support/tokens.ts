/**
 * An access token for a client, however the test reaches the issuer: the token endpoint's request for a
 * fetch handler (`clientCredentialsGrant`), a server or node process's HTTP (`tokenRequest`,
 * `accessToken`), or the core issuer itself (`tokenFor`). Always the client credentials grant with
 * HTTP Basic (RFC 6749 §4.4, §2.3.1).
 */
import type { CoreIssuer } from '../../core/core-issuer.ts'
import type { HttpResponse } from './server.ts'

export interface ClientCredentials {
  client_id: string
  client_secret: string
}

export const FORM = 'application/x-www-form-urlencoded'

/** HTTP Basic as RFC 6749 §2.3.1 says: id and secret form-urlencoded, then base64. */
export function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return 'Basic ' + btoa(`${encode(id)}:${encode(secret)}`)
}

/** The token endpoint's request for `client`, as `RequestInit` (or a process's `http` options); without `scope`, every scope the client holds. */
export function clientCredentialsGrant(
  client: ClientCredentials,
  scope?: string,
): {
  method: 'POST'
  headers: Record<string, string>
  body: string
} {
  return {
    method: 'POST',
    headers: { authorization: basic(client.client_id, client.client_secret), 'content-type': FORM },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope !== undefined ? { scope } : {}) }).toString(),
  }
}

/** A server or node process, by its HTTP. */
interface Reachable {
  http(path: string, options: ReturnType<typeof clientCredentialsGrant>): Promise<HttpResponse>
}

/** POST /oauth/token on a process with the client credentials grant: the answer as it is. */
export function tokenRequest(target: Reachable, client: ClientCredentials, scope?: string): Promise<HttpResponse> {
  return target.http('/oauth/token', clientCredentialsGrant(client, scope))
}

/** An access token from a process's token endpoint, asserting it said 200. */
export async function accessToken(target: Reachable, client: ClientCredentials, scope?: string): Promise<string> {
  const response = await tokenRequest(target, client, scope)
  if (response.status !== 200) throw new Error(`token endpoint said ${response.status}: ${response.text}`)
  return response.json.access_token
}

/** A token from the core issuer, no HTTP in between. */
export function tokenFor(issuer: CoreIssuer, client: ClientCredentials, scope: string | null = null) {
  return issuer.tokens.issue({ clientId: client.client_id, clientSecret: client.client_secret, grantType: 'client_credentials', scope })
}

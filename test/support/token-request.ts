/** The token endpoint's client-credentials request for `client` (RFC 6749 §4.4, Basic authentication). */
export function clientCredentialsGrant(client: { client_id: string; client_secret: string }): {
  method: 'POST'
  headers: Record<string, string>
  body: string
} {
  return {
    method: 'POST',
    headers: {
      authorization: 'Basic ' + btoa(`${client.client_id}:${client.client_secret}`),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  }
}

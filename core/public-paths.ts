/**
 * Path templates of the public surface, relative to `{public_url}` (docs/api.md §2.7, §2.11, §4.11;
 * docs/decisions/0001-addresses.md), with `{name}` placeholders. Core's URL builders fill them
 * (`core/credentials/urls.ts`) and the HTTP face serves the same templates, so the address a credential
 * names and the route that answers it cannot drift apart. `issuer` and `achievement` are identifiers
 * inside credentials only (the issuer profile's `url`, the achievement `id`): no route serves them.
 * `issuer` is also the club's OID4VCI credential issuer identifier, whose metadata is at its well-known address (`WELL_KNOWN`,
 * docs/decisions/0035-wallets-oid4vci.md); the wallet endpoints live below it.
 */
const OPEN_BADGES = '/open-badges/v3'

export const PUBLIC_PATHS = {
  /** Every verification resource lives under this prefix; CORS preflights are answered below it. */
  openBadges: OPEN_BADGES,
  verify: `${OPEN_BADGES}/achievements/{issuanceId}/verify`,
  credential: `${OPEN_BADGES}/credentials/{credentialId}`,
  issuer: `${OPEN_BADGES}/issuers/{domain}`,
  didDocument: `${OPEN_BADGES}/issuers/{domain}/did.json`,
  achievement: `${OPEN_BADGES}/issuers/{domain}/achievements/{templateId}`,
  /** The club's first revocation list, at the address of docs/api.md §4.11. */
  firstStatusList: `${OPEN_BADGES}/issuers/{domain}/status-lists/revocation`,
  /** A later revocation list of the club, after the first filled, by list id. */
  statusList: `${OPEN_BADGES}/issuers/{domain}/status-lists/revocation/{listId}`,
  image: `${OPEN_BADGES}/images/{hash}`,
  /** The alignment target of a tag (docs/api.md §2.3). */
  skill: '/skills/{tag}',
  /** OID4VCI: the credential offer of one credential, with a fresh pre-authorized code each fetch. */
  credentialOffer: `${OPEN_BADGES}/issuers/{domain}/credential-offers/{credentialId}`,
  /** OID4VCI: the token endpoint (pre-authorized code grant) of the club's credential issuer. */
  walletToken: `${OPEN_BADGES}/issuers/{domain}/token`,
  walletNonce: `${OPEN_BADGES}/issuers/{domain}/nonce`,
  walletCredential: `${OPEN_BADGES}/issuers/{domain}/credential`,
  /** Learner Credential Wallet: the stable link (share page, mail) that redirects to a fresh request for the wallet. */
  lcwRequest: `${OPEN_BADGES}/issuers/{domain}/lcw-requests/{credentialId}`,
  /** Learner Credential Wallet: one exchange (its signed challenge), where the wallet posts its DID Authentication. */
  lcwExchange: `${OPEN_BADGES}/issuers/{domain}/lcw-exchanges/{exchange}`,
} as const

/**
 * Well-known names inserted between the host and the path of an identifier (RFC 8615): OID4VCI 1.0 §12.2.2
 * for credential issuer metadata, RFC 8414 §3 for authorization server metadata.
 */
export const WELL_KNOWN = {
  credentialIssuer: '/.well-known/openid-credential-issuer',
  authorizationServer: '/.well-known/oauth-authorization-server',
} as const

/** The placeholder names of a path template: `'domain' | 'listId'` for `PUBLIC_PATHS.statusList`. */
export type PathParams<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never

/**
 * `template` with every `{name}` replaced by its value, percent-encoded as one path segment (a tag may
 * hold any character; club domains, ids and hashes encode to themselves).
 *
 * @example
 * fillPath(PUBLIC_PATHS.verify, { issuanceId: 42 }) // '/open-badges/v3/achievements/42/verify'
 */
export function fillPath<T extends string>(template: T, values: Record<PathParams<T>, string | number>): string {
  const byName = values as Record<string, string | number>
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(byName[name])))
}

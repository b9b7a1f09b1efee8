import type { IssuerConfig } from '../config.ts'

/**
 * The did:web of a club (docs/decisions/0001-addresses.md): its DID document is
 * `{public_url}/open-badges/v3/issuers/{club}/did.json`, so the DID is the host (port as `%3A`) followed
 * by the path segments, colon-separated.
 */
export function clubDid(config: IssuerConfig, club: string): string {
  const url = new URL(config.urls.public)
  const segments = [...url.pathname.split('/').filter(Boolean), 'open-badges', 'v3', 'issuers', club]
  return ['did:web', encodeURIComponent(url.host), ...segments.map(encodeURIComponent)].join(':')
}

/** The owner name of a club's credential signing keys in the key store. */
export function clubKeyOwner(club: string): string {
  return `club:${club}`
}

/** The club whose keys an owner name holds; null for the instance's own keys. */
export function clubOfKeyOwner(owner: string): string | null {
  return owner.startsWith('club:') ? owner.slice('club:'.length) : null
}

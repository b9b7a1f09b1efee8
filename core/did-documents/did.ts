import type { IssuerConfig } from '../config.ts'
import type { KeyAlgorithm } from '../keys/key-algorithm.ts'

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

const CLUB_OWNER = 'club:'
const CLUB_ED25519_OWNER = 'club-ed25519:'

/** The owner name of a club's VC-JWT signing keys (ES256) in the key store. */
export function clubKeyOwner(club: string): string {
  return `${CLUB_OWNER}${club}`
}

/**
 * The owner name of a club's Data Integrity signing keys (Ed25519): an owner of its own, because the
 * keys table holds one active key per owner (docs/data-integrity.md § Keys).
 */
export function clubDataIntegrityKeyOwner(club: string): string {
  return `${CLUB_ED25519_OWNER}${club}`
}

/** The club whose keys an owner name holds; null for the instance's own keys. */
export function clubOfKeyOwner(owner: string): string | null {
  for (const prefix of [CLUB_OWNER, CLUB_ED25519_OWNER]) if (owner.startsWith(prefix)) return owner.slice(prefix.length)
  return null
}

/** The algorithm of every key of an owner: Ed25519 for Data Integrity keys, ES256 for all others. */
export function keyAlgorithmOfOwner(owner: string): KeyAlgorithm {
  return owner.startsWith(CLUB_ED25519_OWNER) ? 'Ed25519' : 'ES256'
}

import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context'
import { fromBase58btc } from '../crypto/base58btc.ts'
import type { DocumentLoader } from '../ports/data-integrity-signer.ts'

const DID_V1 = 'https://www.w3.org/ns/did/v1'
const ED25519_2020_V1 = 'https://w3id.org/security/suites/ed25519-2020/v1'
const VC_V1 = 'https://www.w3.org/2018/credentials/v1'
const VC_V2 = 'https://www.w3.org/ns/credentials/v2'

/** The multicodec prefix of an Ed25519 public key (`ed25519-pub`), which makes every such did:key `z6Mk…`. */
const ED25519_PUB = [0xed, 0x01]

/**
 * The DID document of an Ed25519 did:key (did:key Method v0.7, the `Ed25519VerificationKey2020`
 * representation the Learner Credential Wallet makes: app/lib/did.ts), computed from the DID itself, or
 * `null` when `did` is no Ed25519 did:key. Its one key, `did#fingerprint`, authenticates.
 */
export function ed25519DidKeyDocument(did: string): Record<string, unknown> | null {
  const match = /^did:key:(z[1-9A-HJ-NP-Za-km-z]+)$/.exec(did)
  if (!match) return null
  const fingerprint = match[1]!
  const bytes = fromBase58btc(fingerprint.slice(1))
  if (!bytes || bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) return null
  const id = `${did}#${fingerprint}`
  return {
    '@context': [DID_V1, ED25519_2020_V1],
    id: did,
    verificationMethod: [{ id, type: 'Ed25519VerificationKey2020', controller: did, publicKeyMultibase: fingerprint }],
    authentication: [id],
    assertionMethod: [id],
  }
}

/** The verification method `did#fingerprint` of an Ed25519 did:key, with the `@context` of its DID document. */
function verificationMethodOf(url: string): Record<string, unknown> | null {
  const [did, fragment] = url.split('#')
  const document = did === undefined || fragment === undefined ? null : ed25519DidKeyDocument(did)
  const methods = (document?.verificationMethod ?? []) as { id: string }[]
  const method = methods.find((m) => m.id === url)
  return method ? { '@context': ED25519_2020_V1, ...method } : null
}

const CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [VC_V1, credentialsContexts.get(VC_V1)],
  [VC_V2, credentialsContexts.get(VC_V2)],
])

/**
 * The document loader of DID Authentication (docs/learner-credential-wallet.md): the VC 1.1 and 2.0
 * contexts a wallet's presentation names, from the copies clubcred ships, and did:key documents and keys
 * computed from the DID. The Ed25519Signature2020 context comes with the suite that checks it (the
 * `PresentationVerifier`). Nothing is fetched: a wallet's DID is a key, and any other URL (a did:web, a
 * remote context) is an error that names it.
 */
export const didAuthenticationLoader: DocumentLoader = async (url) => {
  const document = CONTEXTS.get(url) ?? (url.includes('#') ? verificationMethodOf(url) : ed25519DidKeyDocument(url))
  if (document === undefined || document === null) throw new Error(`${url} is neither a context clubcred holds nor an Ed25519 did:key`)
  return { contextUrl: null, documentUrl: url, document }
}

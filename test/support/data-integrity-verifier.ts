/**
 * Verifying a Data Integrity proof the way a verifier elsewhere does (docs/data-integrity.md): Digital
 * Bazaar's VC library with the `eddsa-rdfc-2022` cryptosuite, the issuer's did:web resolved from the
 * server under test, the revocation list read from it and decoded by Digital Bazaar's Bitstring Status
 * List implementation. The contexts come from copies clubcred's signer does not use (the 1EdTech
 * validator's and the W3C DID and Multikey context packages); nothing is fetched from the network.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { DataIntegrityProof } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { verifyCredential, type VerificationResult } from '@digitalbazaar/vc'
import didContext from 'did-context'
import multikeyContext from '@digitalbazaar/multikey-context'
import type { RawResponse } from './api-harness.ts'
import type { Json } from './json.ts'
import { fetchStatusList, verifyWithDidDocument } from './verification-status-list.ts'

const FIXTURES = fileURLToPath(new URL('../fixtures/ob3/contexts/', import.meta.url))
const fixture = (file: string): unknown => JSON.parse(readFileSync(`${FIXTURES}${file}`, 'utf8'))

/** The contexts a credential or a DID document names, by URL. */
export const VERIFIER_CONTEXTS: ReadonlyMap<string, unknown> = new Map([
  ['https://www.w3.org/ns/credentials/v2', fixture('w3c_credentials_v2.jsonld')],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json', fixture('ob_v3p0_context-3.0.3.json')],
  ['https://purl.imsglobal.org/spec/ob/v3p0/extensions.json', fixture('ob_v3p0_extensions.json')],
  [didContext.CONTEXT_URL, didContext.contexts.get(didContext.CONTEXT_URL)],
  [multikeyContext.CONTEXT_URL, multikeyContext.contexts.get(multikeyContext.CONTEXT_URL)],
])

type Get = (url: string) => Promise<RawResponse>
type Loaded = { contextUrl: null; documentUrl: string; document: unknown }

/**
 * did:web resolution (https://w3c-ccg.github.io/did-method-web/) with one change, http instead of https,
 * since the test server listens on a local port without TLS: `did:web:host%3Aport:a:b` →
 * `http://host:port/a/b/did.json`. The document must name itself.
 */
export async function resolveDidWeb(get: Get, did: string): Promise<Json> {
  const [host, ...path] = did.slice('did:web:'.length).split(':').map(decodeURIComponent)
  const response = await get(`http://${host}/${path.length > 0 ? path.join('/') : '.well-known'}/did.json`)
  assert.equal(response.status, 200, `${did} resolves: ${response.text}`)
  assert.equal(response.body.id, did, 'the DID document names the DID it was resolved for')
  return response.body
}

/**
 * A document loader: a context from the copies above, a did:web DID document from the server, and a
 * DID URL `<did>#<fragment>` as the verification method of that id in its document, under the
 * document's contexts. Anything else throws, naming the URL.
 */
export function verifierLoader(get: Get): (url: string) => Promise<Loaded> {
  return async (url) => {
    const context = VERIFIER_CONTEXTS.get(url)
    if (context !== undefined) return { contextUrl: null, documentUrl: url, document: context }
    if (!url.startsWith('did:web:')) throw new Error(`the verifier holds no document ${url}`)
    const [did, fragment] = url.split('#') as [string, string | undefined]
    const didDocument = await resolveDidWeb(get, did)
    if (fragment === undefined) return { contextUrl: null, documentUrl: url, document: didDocument }
    const method = didDocument.verificationMethod.find((candidate: { id: string }) => candidate.id === url)
    if (!method) throw new Error(`${did} has no verification method ${url}`)
    return { contextUrl: null, documentUrl: url, document: { '@context': didDocument['@context'], ...method } }
  }
}

/**
 * The credential's revocation status: its list fetched from the server, the list's VC-JWT verified with
 * the club's DID document, the bit decoded by Digital Bazaar's implementation.
 */
function revocationChecker(get: Get) {
  return async ({ credential }: { credential: Record<string, unknown> }) => {
    const entry = credential.credentialStatus as { statusListCredential: string; statusListIndex: string }
    const { jwt, list } = await fetchStatusList(get, entry.statusListCredential)
    await verifyWithDidDocument(jwt, await resolveDidWeb(get, String((credential.issuer as { id: string }).id)))
    return { verified: !list.getStatus(Number(entry.statusListIndex)) }
  }
}

/** Verifies a JSON-LD credential's `eddsa-rdfc-2022` proof and its revocation status, at `now` (default: the machine's time). */
export function verifyDataIntegrity(credential: unknown, get: Get, { now }: { now?: Date } = {}): Promise<VerificationResult> {
  return verifyCredential({
    credential,
    ...(now ? { now } : {}),
    suite: new DataIntegrityProof({ cryptosuite }),
    documentLoader: verifierLoader(get),
    checkStatus: revocationChecker(get),
  })
}

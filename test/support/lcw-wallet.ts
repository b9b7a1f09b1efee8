/**
 * The Learner Credential Wallet's side of a credential request, step by step as its code does it
 * (docs/learner-credential-wallet.md § Sources), on the Digital Credentials Consortium's libraries it uses:
 * its did:key profile (app/lib/did.ts `mintDid`), the request link (lcw.app/request.html's script, then
 * app/lib/decode.ts `isLegacyCredentialRequest` / `legacyRequestParamsFromUrl`), the DID Authentication
 * presentation (app/lib/present.ts `createVerifiablePresentation`) and the request itself
 * (app/lib/credentialRequest.ts `requestCredential`, app/lib/verifiableObject.ts `extractCredentialsFrom`).
 */
import * as vc from '@digitalcredentials/vc'
import { Ed25519VerificationKey2020 } from '@digitalcredentials/ed25519-verification-key-2020'
import { Ed25519Signature2020 } from '@digitalcredentials/ed25519-signature-2020'
import * as DidMethodKey from '@digitalcredentials/did-method-key'
import { securityLoader } from '@digitalcredentials/security-document-loader'

/** The wallet's offline loader: the contexts the library bundles (the app's also fetches remote ones). */
const documentLoader = securityLoader().build()

export interface WalletProfile {
  did: string
  /** The exported key pair, as the app stores it (`DidRecordRaw.verificationKey`). */
  verificationKey: Record<string, unknown>
}

/** A new profile: an Ed25519 did:key, as `mintDid` makes it. */
export async function mintProfile(): Promise<WalletProfile> {
  const didKeyDriver = DidMethodKey.driver()
  didKeyDriver.use({ multibaseMultikeyHeader: 'z6Mk', fromMultibase: Ed25519VerificationKey2020.from })
  const verificationKeyPair = await Ed25519VerificationKey2020.generate({ seed: crypto.getRandomValues(new Uint8Array(32)) })
  const { didDocument } = await didKeyDriver.fromKeyPair({ verificationKeyPair })
  verificationKeyPair.controller = didDocument.id
  verificationKeyPair.id = `${didDocument.id}#${verificationKeyPair.fingerprint()}`
  return { did: didDocument.id, verificationKey: verificationKeyPair.export({ publicKey: true, privateKey: true }) }
}

export interface CredentialRequestParams {
  issuer: string
  vc_request_url: string
  auth_type?: string
  challenge?: string
}

/**
 * What the app receives from a page of `https://lcw.app/request.html?…`: the page sends the browser to
 * `dccrequest://request` with the same query, and the app parses that link.
 */
export function deepLinkFromRequestPage(pageUrl: string): string {
  const page = new URL(pageUrl)
  if (page.origin + page.pathname !== 'https://lcw.app/request.html') throw new Error(`not the wallet's request page: ${pageUrl}`)
  return `dccrequest://request${page.search}`
}

/** `isLegacyCredentialRequest` then `legacyRequestParamsFromUrl`: the query after the first `?`. */
export function legacyRequestParams(deepLink: string): CredentialRequestParams {
  if (!deepLink.startsWith('dccrequest://') && !deepLink.startsWith('https://lcw.app/request')) throw new Error('not a wallet deep link')
  const query = Object.fromEntries(new URLSearchParams(deepLink.split('?')[1]))
  if (!('vc_request_url' in query) || !('issuer' in query)) throw new Error('not a legacy credential request')
  return query as unknown as CredentialRequestParams
}

/**
 * `createVerifiablePresentation`: an empty presentation by the profile's DID, signed for `authentication`.
 * `holder` names another DID than the signing profile's (a forgery: signed, but by someone else's key).
 */
export async function didAuthentication(profile: WalletProfile, challenge: string, holder = profile.did): Promise<Record<string, unknown>> {
  const key = await Ed25519VerificationKey2020.from(profile.verificationKey)
  const presentation = vc.createPresentation({ holder, verify: false })
  return vc.signPresentation({ presentation, suite: new Ed25519Signature2020({ key }), challenge, documentLoader })
}

/** The POST of `requestCredential`: the presentation as JSON to `vc_request_url`. */
export function postPresentation(fetchFn: typeof fetch, params: CredentialRequestParams, presentation: unknown): Promise<Response> {
  return fetchFn(params.vc_request_url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(presentation) })
}

/** `extractCredentialsFrom`: a credential answers itself, a presentation its `verifiableCredential`. */
export function extractCredentialsFrom(answer: { type?: unknown; verifiableCredential?: unknown }): unknown[] | null {
  const types = [answer.type].flat()
  if (types.includes('VerifiableCredential')) return [answer]
  if (types.includes('VerifiablePresentation') && answer.verifiableCredential !== undefined) return [answer.verifiableCredential].flat()
  return null
}

import * as v from 'valibot'
import { CredentialError, OAuthError, ProblemError } from '../../../core/errors.ts'
import { LCW_PRESENTATION_MAX_BYTES } from '../../../core/wallets/lcw-exchange.ts'
import { mediaType, readBody, readJson } from '../body.ts'
import { ANY_ORIGIN as ANY } from '../cors.ts'
import { json } from '../responses.ts'
import { bearerTokenOf } from '../auth.ts'
import { param } from '../router.ts'
import type { Call } from '../operation.ts'

/*
 * Each club as an OID4VCI 1.0 credential issuer (pre-authorized code flow; docs/decisions/0035-wallets-oid4vci.md):
 * its metadata at the well-known addresses, the credential offer a QR code points
 * at, and the token, nonce and credential endpoints. Public like the rest of the verification surface:
 * no client authentication, readable from any origin (the router marks errors too).
 */

/** The token request's form (OID4VCI 1.0 §6.1), for the document: `token` reads these parameters. */
export const walletTokenFormSchema = v.object({
  grant_type: v.literal('urn:ietf:params:oauth:grant-type:pre-authorized_code'),
  'pre-authorized_code': v.string(),
  resource: v.optional(v.string()),
})

/** The credential request (OID4VCI 1.0 §8.2), for the document: proofs are accepted and ignored. */
export const credentialRequestSchema = v.object({
  credential_configuration_id: v.string(),
  proofs: v.optional(v.record(v.string(), v.array(v.unknown()))),
})

/** The nonce request has no body (OID4VCI 1.0 §7.1); anything sent is not read. */
export const nonceRequestSchema = v.object({})

/** Metadata changes only when the club is renamed: cached briefly. */
const METADATA_CACHE = 'public, max-age=300, must-revalidate'

export async function credentialIssuerMetadata({ issuer, request }: Call): Promise<Response> {
  return json(await issuer.wallets.credentialIssuerMetadata(param(request, 'domain')), 200, { 'cache-control': METADATA_CACHE, ...ANY })
}

export async function authorizationServerMetadata({ issuer, request }: Call): Promise<Response> {
  return json(await issuer.wallets.authorizationServerMetadata(param(request, 'domain')), 200, { 'cache-control': METADATA_CACHE, ...ANY })
}

/** A fresh pre-authorized code on every fetch, so never cached (OID4VCI 1.0 §4.1.3). */
export async function credentialOffer({ issuer, request }: Call): Promise<Response> {
  return json(await issuer.wallets.credentialOffer(param(request, 'domain'), param(request, 'credentialId')), 200, ANY)
}

/** `POST …/token`: the pre-authorized code grant, RFC 6749 form in, RFC 6749 JSON out (errors too). */
export async function token({ issuer, request }: Call): Promise<Response> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new OAuthError('invalid_request', 'Send the token request as application/x-www-form-urlencoded.')
  }
  let form: URLSearchParams
  try {
    form = new URLSearchParams(new TextDecoder().decode(await readBody(request, issuer.config.maxBodyBytes)))
  } catch (error) {
    throw new OAuthError('invalid_request', 'The token request body is too large.', { cause: error })
  }
  // RFC 6749 §3.2: request parameters MUST NOT be included more than once.
  const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1)
  if (repeated !== undefined) throw new OAuthError('invalid_request', `The parameter ${repeated} is repeated.`)
  const answer = await issuer.wallets.token(param(request, 'domain'), {
    grantType: form.get('grant_type'),
    preAuthorizedCode: form.get('pre-authorized_code'),
    txCode: form.get('tx_code'),
    resource: form.get('resource'),
  })
  return json(answer, 200, { pragma: 'no-cache', ...ANY })
}

/** `POST …/nonce` (OID4VCI 1.0 §7): no body, no authentication. */
export async function nonce({ issuer, request }: Call): Promise<Response> {
  return json(await issuer.wallets.nonce(param(request, 'domain')), 200, ANY)
}

/** `POST …/credential` (OID4VCI 1.0 §8): the bearer access token first, then the JSON request. */
export async function credential({ issuer, request }: Call): Promise<Response> {
  const token = bearerTokenOf(request)
  if (token === null) {
    // No header at all is a bare challenge (RFC 6750 §3.1); a header we cannot read is invalid_token.
    const tokenMissing = !request.headers.has('authorization')
    throw new CredentialError('invalid_token', 'Send the access token as Authorization: Bearer <token>.', { tokenMissing })
  }
  const readRequest = async () => {
    try {
      return await readJson(request, issuer.config.maxBodyBytes)
    } catch (error) {
      // A malformed body is a credential request error here (§8.3.1.2), not a problem document.
      if (!(error instanceof ProblemError)) throw error
      throw new CredentialError('invalid_credential_request', error.detail ?? 'The credential request is malformed.', { cause: error })
    }
  }
  return json(await issuer.wallets.credential(param(request, 'domain'), token, readRequest), 200, ANY)
}

/**
 * `GET …/lcw-requests/{credentialId}`: the stable "Add to Learner Credential Wallet" link of the share page
 * and the mail. A person's browser follows it to a fresh request on the wallet's site, which opens the app
 * (docs/learner-credential-wallet.md); nothing is stored, and the answer is never cached (each is a new exchange).
 */
export async function lcwRequest({ issuer, request }: Call): Promise<Response> {
  const location = await issuer.wallets.lcwRequest(param(request, 'domain'), param(request, 'credentialId'))
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...ANY } })
}

/**
 * The wallet's DID Authentication presentation (the body of `POST …/lcw-exchanges/{exchange}`), for the
 * document: no other member (core/wallets/did-authentication-shape.ts refuses one before any JSON-LD work).
 */
export const lcwPresentationSchema = v.strictObject({
  '@context': v.union([v.string(), v.array(v.string())]),
  type: v.union([v.string(), v.array(v.string())]),
  id: v.optional(v.string()),
  holder: v.string(),
  proof: v.strictObject({
    type: v.literal('Ed25519Signature2020'),
    created: v.optional(v.string()),
    verificationMethod: v.string(),
    proofPurpose: v.literal('authentication'),
    challenge: v.string(),
    domain: v.optional(v.string()),
    proofValue: v.string(),
  }),
})

/** `POST …/lcw-exchanges/{exchange}`: the wallet's DID Authentication in, the credential's JSON-LD form out, once. */
export async function lcwExchange({ issuer, request }: Call): Promise<Response> {
  // A limit of its own, far below the API's: a DID Authentication is about 1.5 KB (docs/learner-credential-wallet.md).
  const readPresentation = () => readJson(request, Math.min(LCW_PRESENTATION_MAX_BYTES, issuer.config.maxBodyBytes))
  return json(await issuer.wallets.lcwExchange(param(request, 'domain'), param(request, 'exchange'), readPresentation), 200, {
    'cache-control': 'no-store',
    ...ANY,
  })
}

import { NotOffered, ProblemError } from '../errors.ts'
import { jsonLdFormOf } from '../credentials/json-ld-form.ts'
import { recordClaim } from '../issuances/record-claim.ts'
import type { IssuerContext } from '../context.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'
import { didAuthenticationLoader } from './did-key.ts'
import { LCW_EXCHANGE_TTL_SECONDS } from './lifetimes.ts'
import { REDEEMED_CODE_SCOPE, redeemOnce } from './redeem-once.ts'
import { didAuthenticationRefusal } from './did-authentication-shape.ts'
import { failedAttemptsUsedUp, MAX_FAILED_ATTEMPTS, recordFailedAttempt } from './exchange-attempts.ts'
import { redeemableCredential } from './redeemable-credential.ts'
import { credentialIssuerId, lcwExchangeUrl } from './urls.ts'
import type { WalletKeys } from './wallet-keys.ts'

const noExchange = () => new NotOffered('This issuer offers no Learner Credential Wallet exchange.')

/** The page of the wallet's site that hands a request to the installed app (`dccrequest://request?…`). */
export const LCW_REQUEST_PAGE = 'https://lcw.app/request.html'

/**
 * A fresh request for the Learner Credential Wallet (docs/learner-credential-wallet.md § The request link):
 * `https://lcw.app/request.html?issuer=…&auth_type=bearer&challenge=<exchange>&vc_request_url=<exchange URL>`,
 * where the exchange is a signed, short-lived token naming the credential: nothing is stored. Refused for
 * a credential that may not go into a wallet (revoked) or that has no JSON-LD form (not yet, or never).
 */
export async function lcwRequest(ctx: IssuerContext, keys: WalletKeys, club: string, credentialId: string): Promise<string> {
  if (!ctx.presentationVerifier) throw noExchange()
  const credential = await offerable(ctx, club, credentialId)
  const issuer = credentialIssuerId(ctx.config, club)
  const exchange = await keys.sign('lcw-exchange', { iss: issuer, sub: credential.id, jti: ctx.random.uuid() }, LCW_EXCHANGE_TTL_SECONDS)
  const query = new URLSearchParams({ issuer, auth_type: 'bearer', challenge: exchange, vc_request_url: lcwExchangeUrl(ctx.config, club, exchange) })
  return `${LCW_REQUEST_PAGE}?${query.toString()}`
}

/**
 * The largest body the exchange reads: a DID Authentication from the wallet is about 1.5 KB, and whatever
 * is larger is no DID Authentication (docs/learner-credential-wallet.md § Before any JSON-LD work).
 */
export const LCW_PRESENTATION_MAX_BYTES = 32 * 1024

/**
 * The wallet's POST to the exchange: its DID Authentication presentation, whose proof answers the
 * exchange as its challenge. Checked in this order, each refusal a problem: the exchange (signed by this
 * issuer for this club, not expired, neither completed nor used up by failures), the credential (still
 * offerable), then the body, read only now (`readPresentation`): its shape on the JSON alone, then its
 * proof (Ed25519Signature2020 by the holder's did:key for `authentication`) by the verifier, off the
 * main thread. A refused body is a failed attempt, recorded; after `MAX_FAILED_ATTEMPTS` the exchange is
 * used up. Last the one write of success, which makes the exchange used (`redeemOnce`, shared with
 * OID4VCI codes), then the claim (core/issuances/record-claim.ts). The answer is the credential's JSON-LD
 * form, as it is stored: the wallet's DID is not written into it (see the doc).
 */
export async function completeLcwExchange(
  ctx: IssuerContext,
  keys: WalletKeys,
  club: string,
  exchange: string,
  readPresentation: () => Promise<unknown>,
): Promise<Record<string, unknown>> {
  const verifier = ctx.presentationVerifier
  if (!verifier) throw noExchange()
  const claims = await keys.verify('lcw-exchange', exchange, credentialIssuerId(ctx.config, club))
  if (!claims || typeof claims.sub !== 'string' || typeof claims.jti !== 'string' || typeof claims.exp !== 'number') {
    throw new ProblemError('wallet-exchange-not-found', {
      detail: 'This exchange does not exist or has expired; open the link on the credential’s page again.',
    })
  }
  const credential = await offerable(ctx, club, claims.sub)
  const attempts = { jti: claims.jti, expiresAt: claims.exp * 1000 }
  await refuseUsedUp(ctx, attempts.jti)
  try {
    const body = await readPresentation()
    const refusal = didAuthenticationRefusal(body, exchange)
    if (refusal !== null) throw new ProblemError('invalid-presentation', { detail: refusal })
    const result = await verifier.verifyAuthentication(body as Record<string, unknown>, { challenge: exchange }, didAuthenticationLoader)
    if (!result.verified) throw new ProblemError('invalid-presentation', { detail: result.reason })
  } catch (error) {
    // Every refusal of the body counts (too large, not JSON, not a DID Authentication, a proof that fails or takes too long).
    if (error instanceof ProblemError) await recordFailedAttempt(ctx, attempts)
    throw error
  }
  const form = readyForm(credential)
  if (!(await redeemOnce(ctx, attempts))) throw exchangeUsed()
  await recordClaim(ctx, credential, 'lcw', 'ldp_vc')
  return form
}

/** Refuses, before the body is read, an exchange completed already or used up by failed attempts. */
async function refuseUsedUp(ctx: IssuerContext, jti: string): Promise<void> {
  if (await ctx.storage.idempotency.find(REDEEMED_CODE_SCOPE, jti)) throw exchangeUsed()
  if (await failedAttemptsUsedUp(ctx, jti)) {
    throw new ProblemError('wallet-exchange-used', {
      detail: `This exchange failed ${MAX_FAILED_ATTEMPTS} times and is used up. Open the link on the credential’s page again.`,
    })
  }
}

const exchangeUsed = () =>
  new ProblemError('wallet-exchange-used', {
    detail: 'This exchange was already completed: a credential is handed out once per link. Open the link on the credential’s page again.',
  })

/** The credential `credentialId` of `club` when a wallet may have it now, with its JSON-LD form ready. */
async function offerable(ctx: IssuerContext, club: string, credentialId: string): Promise<CredentialRecord> {
  const redeemable = await redeemableCredential(ctx, club, credentialId)
  if ('refusal' in redeemable) {
    const found = await ctx.storage.credentials.findById(credentialId)
    if (!found || found.club !== club) throw new ProblemError('credential-not-found', { detail: 'There is no such credential.' })
    throw new ProblemError('credential-revoked', { detail: 'The credential has been revoked; it is not handed to wallets.' })
  }
  readyForm(redeemable.credential)
  return redeemable.credential
}

function readyForm(credential: CredentialRecord): Record<string, unknown> {
  const form = jsonLdFormOf(credential)
  if (form.state === 'pending')
    throw new ProblemError('credential-pending', { detail: 'The credential’s Data Integrity proof is being made; try again in a minute.' })
  if (form.state === 'none') {
    throw new ProblemError('json-ld-form-unavailable', {
      detail: 'This credential was signed before Data Integrity proofs existed and has no JSON-LD form; download its JWT instead.',
    })
  }
  return form.credential
}

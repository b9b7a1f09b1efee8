import type { IssuerContext } from '../context.ts'
import { issueCredential } from './issue-credential.ts'
import { authorizationServerMetadata, credentialIssuerMetadata } from './metadata.ts'
import { createNonce } from './nonce.ts'
import { credentialOffer } from './offer.ts'
import { redeemPreAuthorizedCode, type PreAuthorizedTokenRequest } from './redeem-code.ts'
import { createWalletKeys } from './wallet-keys.ts'

/**
 * Each club as an OID4VCI 1.0 credential issuer with the pre-authorized code flow (issue 16): metadata,
 * offers, the token, nonce and credential endpoints. Stateless but for one row per redeemed code
 * (`redeem-once.ts`). `club` is always the club whose credential issuer was addressed.
 */
export function createWallets(ctx: IssuerContext) {
  const keys = createWalletKeys(ctx)
  return {
    credentialIssuerMetadata: (club: string) => credentialIssuerMetadata(ctx, club),
    authorizationServerMetadata: (club: string) => authorizationServerMetadata(ctx, club),
    /** The offer behind the share page's QR code and the mail's link, with a fresh code. */
    credentialOffer: (club: string, credentialId: string) => credentialOffer(ctx, keys, club, credentialId),
    token: (club: string, request: PreAuthorizedTokenRequest) => redeemPreAuthorizedCode(ctx, keys, club, request),
    nonce: (club: string) => createNonce(ctx, keys, club),
    /** The stored JWT for a wallet access token; `readRequest` yields the parsed JSON credential request. */
    credential: (club: string, accessToken: string, readRequest: () => Promise<unknown>) => issueCredential(ctx, keys, club, accessToken, readRequest),
  }
}

export type Wallets = ReturnType<typeof createWallets>

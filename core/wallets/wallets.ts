import type { IssuerContext } from '../context.ts'
import { issueCredential, type CredentialResponse } from './issue-credential.ts'
import { authorizationServerMetadata, credentialIssuerMetadata, type AuthorizationServerMetadata, type CredentialIssuerMetadata } from './metadata.ts'
import { createNonce } from './nonce.ts'
import { credentialOffer, type CredentialOffer } from './offer.ts'
import { redeemPreAuthorizedCode, type PreAuthorizedTokenRequest, type WalletTokenResponse } from './redeem-code.ts'
import { createWalletKeys } from './wallet-keys.ts'
import { completeLcwExchange, lcwRequest } from './lcw-exchange.ts'

/**
 * Each club as an OID4VCI 1.0 credential issuer with the pre-authorized code flow: metadata,
 * offers, the token, nonce and credential endpoints. Stateless but for one row per redeemed code
 * (`redeem-once.ts`). `club` is always the club whose credential issuer was addressed.
 */
export interface Wallets {
  /** The club's credential issuer metadata (OID4VCI 1.0 §12.2.4); `club-not-found`. */
  credentialIssuerMetadata(club: string): Promise<CredentialIssuerMetadata>
  /** The club's authorization server metadata (RFC 8414); `club-not-found`. */
  authorizationServerMetadata(club: string): Promise<AuthorizationServerMetadata>
  /** The offer behind the share page's QR code and the mail's link, with a fresh code; `credential-not-found`. */
  credentialOffer(club: string, credentialId: string): Promise<CredentialOffer>
  /** Redeems a pre-authorized code; throws `OAuthError` (RFC 6749 §5.2 codes). */
  token(club: string, request: PreAuthorizedTokenRequest): Promise<WalletTokenResponse>
  /** A fresh `c_nonce`; `club-not-found`. */
  nonce(club: string): Promise<{ c_nonce: string }>
  /**
   * The stored JWT for a wallet access token; `readRequest` yields the parsed JSON credential request and
   * is called once the token holds. Throws `CredentialError` (OID4VCI 1.0 §8.3.1 codes).
   */
  credential(club: string, accessToken: string, readRequest: () => Promise<unknown>): Promise<CredentialResponse>
  /**
   * Learner Credential Wallet: a fresh request link (`https://lcw.app/request.html?…`) for the credential;
   * `credential-not-found`, `credential-revoked`, `credential-pending`, `json-ld-form-unavailable`.
   */
  lcwRequest(club: string, credentialId: string): Promise<string>
  /**
   * Learner Credential Wallet: completes the exchange with the wallet's DID Authentication presentation and
   * answers the credential's JSON-LD form; `readPresentation` yields the parsed body and is called once the
   * exchange holds (its refusals count as failed attempts). Also `wallet-exchange-not-found`,
   * `invalid-presentation`, `wallet-exchange-used`.
   */
  lcwExchange(club: string, exchange: string, readPresentation: () => Promise<unknown>): Promise<Record<string, unknown>>
}

export function createWallets(ctx: IssuerContext): Wallets {
  const keys = createWalletKeys(ctx)
  return {
    credentialIssuerMetadata: (club) => credentialIssuerMetadata(ctx, club),
    authorizationServerMetadata: (club) => authorizationServerMetadata(ctx, club),
    credentialOffer: (club, credentialId) => credentialOffer(ctx, keys, club, credentialId),
    token: (club, request) => redeemPreAuthorizedCode(ctx, keys, club, request),
    nonce: (club) => createNonce(ctx, keys, club),
    credential: (club, accessToken, readRequest) => issueCredential(ctx, keys, club, accessToken, readRequest),
    lcwRequest: (club, credentialId) => lcwRequest(ctx, keys, club, credentialId),
    lcwExchange: (club, exchange, readPresentation) => completeLcwExchange(ctx, keys, club, exchange, readPresentation),
  }
}

import type { OAuthErrorCode } from '../errors.ts'

/**
 * What the issuer tells an operator's monitoring: named observations at the points where core does the
 * work (docs/operations-metrics.md lists each metric they feed). Core knows no metrics library; an
 * adapter turns these calls into its counters and histograms (`adapters/metrics/prometheus.ts`).
 *
 * Unlike the other ports these methods are synchronous and return nothing: an observation MUST NOT
 * make the work it observes wait, and MUST NOT throw (an adapter that fails drops the observation).
 */
export interface MetricsPort {
  /** `count` credentials were stored as signed (their issuance now has a credential). */
  credentialsSigned(count: number): void
  /** One group of credentials was signed (building and signing, storing excluded), taking `ms`. */
  signingLatency(ms: number): void
  /** One attempt to send a recipient's mail ended. */
  mailDelivery(outcome: MailOutcome): void
  /** One attempt of a webhook delivery ended. */
  webhookDelivery(outcome: WebhookOutcome): void
  /** A public verification (docs/api.md §4.11) answered this verdict. */
  verification(verdict: VerificationVerdict): void
  /** A token request ended: `issued`, or the OAuth error code it was refused with. */
  tokenRequest(outcome: TokenOutcome): void
  /** A storage call failed with core's storage vocabulary: `unavailable` (StorageUnavailable) or `other`. */
  storageError(kind: StorageErrorKind): void
  /** `count` Data Integrity proofs were made by this path (docs/data-integrity.md § Cost); the signer reports them. */
  dataIntegrityProofs(path: DataIntegrityProofPath, count: number): void
  /**
   * `count` credentials were settled without a Data Integrity proof because JSON-LD refuses what their JWT
   * signed (core/signing-queue/settle-unprovable.ts): their JSON-LD form is `none` for good.
   */
  credentialsWithoutProof(count: number): void
}

export type MailOutcome = 'sent' | 'failed'
/** `delivered` (2xx), `failed` (retried later) or `given-up` (the last attempt failed). */
export type WebhookOutcome = 'delivered' | 'failed' | 'given-up'
/** `valid`, `revoked`, `expired` (signature holds), `invalid` (it does not) or `not-found`. */
export type VerificationVerdict = 'valid' | 'revoked' | 'expired' | 'invalid' | 'not-found'
export type TokenOutcome = 'issued' | OAuthErrorCode | 'error'
export type StorageErrorKind = 'unavailable' | 'other'
/** `fast`: written from clubcred's own credential shapes; `reference`: the JSON-LD processor, where the fast path was not sure. */
export type DataIntegrityProofPath = 'fast' | 'reference'

/** The default: observes nothing. */
export const noMetrics: MetricsPort = {
  credentialsSigned() {},
  signingLatency() {},
  mailDelivery() {},
  webhookDelivery() {},
  verification() {},
  tokenRequest() {},
  storageError() {},
  dataIntegrityProofs() {},
  credentialsWithoutProof() {},
}

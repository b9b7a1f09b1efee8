/** @module clubcred/core: the runtime-agnostic domain of clubcred, its ports and its errors. */
export { createCoreIssuer, type IssuerOptions } from './create-core-issuer.ts'
export type { CoreIssuer, IssueOptions, IdempotentOutcome } from './core-issuer.ts'
// What the operations of CoreIssuer take and return, so that callers can name them.
export type { CreateClubInput } from './clubs/create.ts'
export type { ClubRoot } from './clubs/read-root.ts'
export type { ClientCredentials, CreateClientInput } from './clients/create.ts'
export type { ListQuery, Page } from './lists/cursor.ts'
export type { CoIssuerView, TemplateView } from './achievements/present.ts'
export type { V1Form } from './achievements/v1-form.ts'
export type { ApiKeyView } from './api-keys/list.ts'
export type { DesignView } from './designs/present.ts'
export type { StoredImage } from './designs/design.ts'
export type { BatchItem, BatchResult } from './issuances/issue.ts'
export type { IssuanceDetail, IssuanceItem, IssuanceStatus } from './issuances/present.ts'
export type { CredentialView } from './issuances/read.ts'
export type { V1BatchResult, V1IssuanceView } from './issuances/v1.ts'
export type { IssuanceFile } from './files/prepare-file.ts'
export type { EventView } from './events/list.ts'
export type { Verdict } from './verification/verify-issuance.ts'
export type { ShareView } from './verification/share-view.ts'
export type { DidDocument } from './did-documents/did-document.ts'
export type { SecuredStatusList, SignedStatusList } from './status-lists/credential.ts'
export type { IssuerWorker, WorkerOptions } from './worker/loop.ts'
export type { NotReadyReason, Readiness, ReadinessOptions, SigningQueueState } from './health/readiness.ts'
export { noMetrics } from './ports/metrics.ts'
export type * from './ports/metrics.ts'
export type { Wallets } from './wallets/wallets.ts'
export type { CredentialIssuerMetadata, AuthorizationServerMetadata } from './wallets/metadata.ts'
export type { CredentialOffer } from './wallets/offer.ts'
export type { PreAuthorizedTokenRequest, WalletTokenResponse } from './wallets/redeem-code.ts'
export type { CredentialResponse } from './wallets/issue-credential.ts'
export { DEFAULTS, defaultUrls, type IssuerConfig, type IssuerUrls } from './config.ts'
export {
  ProblemError,
  OAuthError,
  CredentialError,
  StorageConflict,
  StorageUnavailable,
  NotOffered,
  type ProblemCode,
  type FieldError,
  type OAuthErrorCode,
  type CredentialErrorCode,
} from './errors.ts'
export { createKeyStore, type KeyStoreOptions } from './keys/create-key-store.ts'
export { SCOPE_NAMES, SCOPE_PREFIX, type ScopeName } from './scopes.ts'
export { systemClock, type Clock } from './ports/clock.ts'
export { webCryptoRandom, type RandomSource } from './ports/random.ts'
export type { KeyStore, PublicKeyRecord, SigningKey } from './ports/key-store.ts'
export type * from './ports/storage.ts'
export type { Club } from './clubs/club.ts'
export type { ApiClient } from './clients/api-client.ts'
export type { Principal } from './tokens/principal.ts'
export type { TokenRequest, TokenResponse } from './tokens/issue.ts'
export type * from './inputs.ts'
export type { CertificateRenderer } from './ports/certificate-renderer.ts'
export type { CertificateModel } from './files/certificate-model.ts'
export type { JwtSigner } from './ports/signer.ts'
export type { DataIntegritySigner, DocumentLoader, ProofRequest, RemoteDocument } from './ports/data-integrity-signer.ts'
export type { Notifier, Notification } from './ports/notifier.ts'

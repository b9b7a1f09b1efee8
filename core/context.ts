import type { IssuerConfig } from './config.ts'
import type { ClientAuthLimiter } from './clients/client-auth-limiter.ts'
import type { Clock } from './ports/clock.ts'
import type { KeyStore } from './ports/key-store.ts'
import type { RandomSource } from './ports/random.ts'
import type { ConsoleStoragePort, StoragePort } from './ports/storage.ts'
import type { JwtSigner } from './ports/signer.ts'
import type { DataIntegritySigner } from './ports/data-integrity-signer.ts'
import type { Notifier } from './ports/notifier.ts'
import type { PresentationVerifier } from './ports/presentation-verifier.ts'
import type { Signal } from './util/signal.ts'
import type { Sealer } from './crypto/seal.ts'
import type { WebhookTransport } from './ports/webhook-transport.ts'
import type { MetricsPort } from './ports/metrics.ts'
import type { ShareCardRenderer } from './ports/share-card-renderer.ts'
import type { ShareViewCounter } from './verification/share-view-counter.ts'

/** What every core verb receives: the configuration and the ports, wired once by `createIssuer`. */
export interface IssuerContext {
  config: IssuerConfig
  storage: StoragePort
  keys: KeyStore
  clock: Clock
  random: RandomSource
  clientAuthFailures: ClientAuthLimiter
  signer: JwtSigner
  /** Makes the Data Integrity proofs of the JSON-LD form; `null` makes none (docs/data-integrity.md). */
  dataIntegritySigner: DataIntegritySigner | null
  /** Delivers e-mail from the outbox; `null` keeps messages in the outbox. */
  notifier: Notifier | null
  /** Checks wallets' DID Authentication presentations; `null` offers no Learner Credential Wallet exchange. */
  presentationVerifier: PresentationVerifier | null
  /** Woken when issuances are accepted, so that the signing worker starts at once. */
  signingQueue: Signal
  /** Seals webhook secrets with the master key; `null` when the issuer got a KeyStore instead of a master key. */
  sealer: (() => Promise<Sealer>) | null
  /** Sends webhook deliveries; `null` keeps them queued. */
  webhookTransport: WebhookTransport | null
  /** Observations for the operator's monitoring; `noMetrics` when none is wired. */
  metrics: MetricsPort
  /** Draws share cards (the share page's `og:image`); `null`: share pages have no card. */
  shareCardRenderer: ShareCardRenderer | null
  /** Share page views held in memory until written in a batch (core/verification/share-view-counter.ts). */
  shareViews: ShareViewCounter
}

/** What the staff console's operations receive: a context whose storage has the console's stores (core/admins/console-storage.ts). */
export interface ConsoleContext extends IssuerContext {
  storage: ConsoleStoragePort
}

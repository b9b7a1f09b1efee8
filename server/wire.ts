import { join } from 'node:path'
import { createIssuer, type Issuer } from '../index.ts'
import { createSmtpNotifier } from '../adapters/smtp/index.ts'
import { createPdfRenderer } from '../adapters/pdf/index.ts'
import { createPresentationVerifier } from '../adapters/node/presentation-verifier.ts'
import { createScryptPasswordHasher } from '../adapters/node/password-hasher.ts'
import { createPasskeyVerifier } from '../adapters/node/passkey-verifier.ts'
import { openStorage } from './storage.ts'
import { checkMasterKey, MasterKeyMismatch } from '../core/keys/check-master-key.ts'
import type { IssuerUrls } from '../core/config.ts'
import type { Clock } from '../core/ports/clock.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { JwtSigner } from '../core/ports/signer.ts'
import type { DataIntegritySigner } from '../core/ports/data-integrity-signer.ts'
import type { ServerConfig } from './config.ts'
import type { WebhookTransport } from '../core/ports/webhook-transport.ts'
import type { ShareCardRenderer } from '../core/ports/share-card-renderer.ts'
import type { MetricsPort } from '../core/ports/metrics.ts'
import type { AnsweredRequest } from '../adapters/http/answered.ts'
import { issuerLogging, loggedNotifier, loggedWebhookTransport } from './log-wiring.ts'
import { createLogger, type Logger } from './log.ts'
import { reportingTo } from './start.ts'

export interface WireOptions {
  config: ServerConfig
  urls: IssuerUrls
  /** Opens the SQLite driver on a file path: each runtime entry passes its own, and may load it here (never called on PostgreSQL). */
  openDriver: (filename: string) => SqliteDriver | Promise<SqliteDriver>
  /** Signs credentials: each runtime entry passes its own (wiring picks no runtime). */
  signer: JwtSigner
  /** Sends webhook deliveries: each runtime entry passes its own; without one they wait in storage. */
  webhookTransport?: WebhookTransport
  /**
   * Draws share cards: each runtime entry passes its own (resvg in a worker thread on Node, its wasm
   * build in a Web Worker on Deno); without one share pages have no card (docs/share-card.md).
   */
  shareCards?: ShareCardRenderer
  /** Where the issuer's observations go (`createPrometheusMetrics()` on Node); without, none are kept. */
  metrics?: { port: MetricsPort; observeRequest: (answered: AnsweredRequest) => void }
  clock?: Clock
  /**
   * Where requests, 500s, worker failures and mail and webhook failures are logged (docs/logs.md). The
   * server entries pass theirs (stdout); by default, stderr at the configured level (the CLI's stdout is its answer).
   */
  logger?: Logger
}

/**
 * Opens the configured storage (the data dir's SQLite file, or PostgreSQL), checks that the master key
 * opens its keys (docs/backup.md § A wrong master key) and builds the issuer on it.
 */
export async function wireIssuer({
  config,
  urls,
  openDriver,
  signer,
  webhookTransport,
  shareCards,
  metrics,
  clock,
  logger = createLogger({ level: config.logLevel, destination: 'stderr' }),
}: WireOptions): Promise<Issuer> {
  const { storage, masterKey } = await openStorage(config, openDriver)
  try {
    await checkMasterKey(storage.keys, masterKey)
  } catch (error) {
    await storage.close()
    if (!(error instanceof MasterKeyMismatch)) throw error
    const source = config.masterKey ? 'CLUBCRED_MASTER_KEY' : `the key file ${join(config.dataDir, 'master.key')}`
    throw new MasterKeyMismatch(`${error.message}; ${source} is not the master key of this data: start with the right one (docs/backup.md)`)
  }
  const logging = issuerLogging(logger)
  return createIssuer({
    ...logging,
    http: { ...logging.http, onResponse: reportingTo(logging.http.onResponse, metrics?.observeRequest) },
    storage,
    masterKey,
    urls,
    signingLeaseMs: config.signingLeaseMs,
    clubCacheSize: config.clubCacheSize,
    webhooks: { allowPrivate: config.webhooksAllowPrivate },
    webhookTransport: webhookTransport ? loggedWebhookTransport(webhookTransport, logger) : null,
    signer,
    // The JSON-LD forms' proofs: Digital Bazaar's libraries, the same on both runtimes (docs/data-integrity.md § Runtimes).
    dataIntegritySigner: dataIntegritySignerOnFirstUse(metrics?.port),
    // The Learner Credential Wallet's DID Authentication; jsonld-signatures runs on Node and Deno alike.
    presentationVerifier: createPresentationVerifier(),
    // Certificate PDFs (GET .../issuances/{id}/file?format=pdf) with the embedded Pretendard font; pdf-lib
    // and fontkit are plain JavaScript, the same on both runtimes.
    certificates: createPdfRenderer(),
    shareCards: shareCards ?? null,
    // The staff console's passwords: scrypt of node:crypto, which Deno's node:crypto has too.
    passwordHasher: createScryptPasswordHasher(),
    // Its passkeys: @simplewebauthn/server, on WebCrypto, which loads on Deno too.
    passkeyVerifier: createPasskeyVerifier(),
    // Without SMTP, recipient mail waits in the outbox table.
    notifier: config.smtpUrl ? loggedNotifier(createSmtpNotifier({ url: config.smtpUrl, from: config.mailFrom }), logger) : null,
    ...(metrics ? { metrics: metrics.port } : {}),
    ...(clock ? { clock } : {}),
  })
}

/**
 * The Node Data Integrity signer, loaded when the first proof is asked for: its JSON-LD libraries are
 * slow to load, and a start, or a CLI command, that signs no proof should not wait for them. It tells
 * the metrics how many proofs each path made.
 */
function dataIntegritySignerOnFirstUse(metrics?: MetricsPort): DataIntegritySigner {
  let signer: Promise<Required<DataIntegritySigner>> | undefined
  const loaded = () =>
    (signer ??= import('../adapters/node/data-integrity-signer.ts').then((module) =>
      module.createDataIntegritySigner(metrics ? { onProofs: (path, count) => metrics.dataIntegrityProofs(path, count) } : {}),
    ))
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      return (await loaded()).signMany(key, verificationMethod, requests, documentLoader)
    },
    async proveJwts(key, verificationMethod, jwts, documentLoader) {
      return (await loaded()).proveJwts(key, verificationMethod, jwts, documentLoader)
    },
    async close() {
      await (await signer)?.close?.()
    },
  }
}

import { createIssuer, type Issuer } from '../index.ts'
import { createSmtpNotifier } from '../adapters/smtp/index.ts'
import { createPdfRenderer } from '../adapters/pdf/index.ts'
import { openStorage } from './storage.ts'
import type { IssuerUrls } from '../core/config.ts'
import type { Clock } from '../core/ports/clock.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { JwtSigner } from '../core/ports/signer.ts'
import type { ServerConfig } from './config.ts'
import type { WebhookTransport } from '../core/ports/webhook-transport.ts'
import { issuerLogging, loggedNotifier, loggedWebhookTransport } from './log-wiring.ts'
import { createLogger, type Logger } from './log.ts'

export interface WireOptions {
  config: ServerConfig
  urls: IssuerUrls
  /** Opens the SQLite driver on a file path: each runtime entry passes its own. */
  openDriver: (filename: string) => SqliteDriver
  /** Signs credentials: each runtime entry passes its own (wiring picks no runtime). */
  signer: JwtSigner
  /** Sends webhook deliveries: each runtime entry passes its own; without one they wait in storage. */
  webhookTransport?: WebhookTransport
  clock?: Clock
  /**
   * Where requests, 500s, worker failures and mail and webhook failures are logged (docs/logs.md). The
   * server entries pass theirs (stdout); by default, stderr at the configured level (the CLI's stdout is its answer).
   */
  logger?: Logger
}

/** Opens the configured storage (the data dir's SQLite file, or PostgreSQL) and builds the issuer on it. */
export async function wireIssuer({
  config,
  urls,
  openDriver,
  signer,
  webhookTransport,
  clock,
  logger = createLogger({ level: config.logLevel, destination: 'stderr' }),
}: WireOptions): Promise<Issuer> {
  const { storage, masterKey } = await openStorage(config, openDriver)
  return createIssuer({
    ...issuerLogging(logger),
    storage,
    masterKey,
    urls,
    signingLeaseMs: config.signingLeaseMs,
    webhooks: { allowPrivate: config.webhooksAllowPrivate },
    webhookTransport: webhookTransport ? loggedWebhookTransport(webhookTransport, logger) : null,
    signer,
    // Certificate PDFs (GET .../issuances/{id}/file?format=pdf) with the embedded Pretendard font; pdf-lib
    // and fontkit are plain JavaScript, the same on both runtimes.
    certificates: createPdfRenderer(),
    // Without SMTP, recipient mail waits in the outbox table.
    notifier: config.smtpUrl ? loggedNotifier(createSmtpNotifier({ url: config.smtpUrl, from: config.mailFrom }), logger) : null,
    ...(clock ? { clock } : {}),
  })
}

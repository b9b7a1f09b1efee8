import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createIssuer, type Issuer } from '../index.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { loadMasterKey } from './master-key.ts'
import { restrictSqliteFiles } from './private-files.ts'
import { createSmtpNotifier } from '../adapters/smtp/index.ts'
import { createPdfRenderer } from '../adapters/pdf/index.ts'
import type { IssuerUrls } from '../core/config.ts'
import type { Clock } from '../core/ports/clock.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { JwtSigner } from '../core/ports/signer.ts'
import type { ServerConfig } from './config.ts'

export interface WireOptions {
  config: ServerConfig
  urls: IssuerUrls
  /** Opens the SQLite driver on a file path: each runtime entry passes its own. */
  openDriver: (filename: string) => SqliteDriver
  /** Signs credentials: each runtime entry passes its own (wiring picks no runtime). */
  signer: JwtSigner
  clock?: Clock
}

/** Opens the data dir's SQLite file and builds the issuer on it. */
export function wireIssuer({ config, urls, openDriver, signer, clock }: WireOptions): Issuer {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const databaseFile = join(config.dataDir, 'clubcred.db')
  restrictSqliteFiles(databaseFile)
  const storage = createSqliteStorage({ driver: openDriver(databaseFile) })
  const masterKey = loadMasterKey(config.dataDir, config.masterKey)
  return createIssuer({
    storage,
    masterKey,
    urls,
    signingLeaseMs: config.signingLeaseMs,
    signer,
    // Certificate PDFs (GET .../issuances/{id}/file?format=pdf) with the embedded Pretendard font.
    certificates: createPdfRenderer(),
    // Without SMTP, recipient mail waits in the outbox table.
    notifier: config.smtpUrl ? createSmtpNotifier({ url: config.smtpUrl, from: config.mailFrom }) : null,
    ...(clock ? { clock } : {}),
  })
}

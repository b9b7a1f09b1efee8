import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { openSealedKeys } from '../core/keys/check-master-key.ts'
import { verifyStoredCredential } from '../core/credentials/verify-stored.ts'
import type Database from 'better-sqlite3'
import { openClubcredFile, readStoredKeys } from './backup-file.ts'
import { copySealed } from './backup-seal.ts'
import { BackupRefused, BackupUnverified, type BackupReport } from './backup-errors.ts'
import { readMasterKey } from './master-key.ts'
import type { SqliteDriver } from '../adapters/sqlite/driver.ts'
import type { ServerConfig } from './config.ts'

/**
 * `verify-backup FILE` (docs/backup.md): checks the copy as a restore would, without a server and
 * without writing beside it. First the seal, with the master key (`CLUBCRED_MASTER_KEY` or the data
 * dir's `master.key`, found as the server finds it, never created): FILE's database is copied into a
 * private temporary directory while its seal is checked over exactly those bytes, and only that copy is
 * opened, read-only. Then its schema is the migrations' and nothing else; the master key opens every
 * stored private key (a backup without keys proves nothing and does not verify); and every stored
 * credential is an ES256 JWS by a key of its club that verifies with that key's public half, the key
 * the club's DID document publishes, and every Data Integrity proof stored with one verifies with the
 * club's Ed25519 key it names (`proofs` counts them). The data dir's own database is refused: the
 * command checks copies.
 */
export async function verifyBackup(
  config: ServerConfig,
  file: string,
  { allowUnsealed, openDriver }: { allowUnsealed: boolean; openDriver: (filename: string) => SqliteDriver },
): Promise<BackupReport> {
  const path = resolve(file)
  if (!existsSync(path)) throw new BackupRefused(`there is no file ${path}`)
  const live = join(config.dataDir, 'clubcred.db')
  if (existsSync(live) && realpathSync(live) === realpathSync(path)) {
    throw new BackupRefused(`${path} is the data dir's live database: verify-backup checks a copy (make one with backup --out)`)
  }
  const masterKey = readMasterKey(config.dataDir, config.masterKey)
  if (!masterKey) {
    throw new BackupRefused(`no master key: set CLUBCRED_MASTER_KEY or put the key file at ${join(config.dataDir, 'master.key')} (CLUBCRED_DATA_DIR)`)
  }
  const scratch = mkdtempSync(join(tmpdir(), 'clubcred-verify-'))
  let db: Database.Database | undefined
  try {
    const copy = join(scratch, 'backup.db')
    const { sealed } = copySealed(path, copy, masterKey, { allowUnsealed })
    const checked = openClubcredFile(copy, { readonly: true, openDriver })
    db = checked.db
    const { schemaVersion } = checked
    const keys = readStoredKeys(db)
    const opened = await openSealedKeys(keys, masterKey)
    const byKid = new Map(keys.map((key) => [key.kid, key]))
    const report: BackupReport = {
      file: path,
      sealed,
      schemaVersion,
      keys: { total: keys.length, opened: opened.opened.length, failed: opened.failed },
      credentials: 0,
      verified: 0,
      proofs: 0,
      failed: [],
    }
    // The proof column came with schema 13: a copy from before has no proofs to check.
    const withProofs = (db.prepare("SELECT count(*) AS n FROM pragma_table_info('credentials') WHERE name = 'proof'").get() as { n: number }).n > 0
    // Loaded on the first proof: the JSON-LD libraries take a while to load, which a copy without proofs should not wait for.
    let checkProof: ((credential: { club: string; jwt: string; proof: string }) => Promise<string | null>) | null = null
    // One row at a time: a backup may hold more credentials than fit in memory at once. In the table's own
    // order, which needs no sort: issue order since migration 0012, storing order before it.
    const rows = db.prepare(`SELECT id, club, jwt${withProofs ? ', proof' : ''} FROM credentials ORDER BY rowid`).iterate() as Iterable<{
      id: string
      club: string
      jwt: string
      proof?: string | null
    }>
    for (const row of rows) {
      report.credentials += 1
      let reason = await verifyStoredCredential(row, (kid) => byKid.get(kid) ?? null)
      // A proof still to be made (null) or never to be (NO_PROOF_COLUMN, '') has nothing to check.
      if (reason === null && typeof row.proof === 'string' && row.proof !== '') {
        report.proofs += 1
        checkProof ??= (await import('./verify-stored-proof.ts')).createStoredProofCheck((kid) => byKid.get(kid) ?? null)
        reason = await checkProof({ club: row.club, jwt: row.jwt, proof: row.proof })
      }
      if (reason === null) report.verified += 1
      else report.failed.push({ id: row.id, reason })
    }
    if (report.keys.total === 0 || report.keys.failed.length > 0 || report.failed.length > 0) throw new BackupUnverified(report)
    return report
  } finally {
    db?.close()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * The ways the backup commands (docs/backup.md) refuse or fail, apart from their code so that the CLI
 * can tell them without loading SQLite.
 */

/** A refusal the operator fixes (a wrong path, a data dir that is not empty): the CLI answers it as a usage error. */
export class BackupRefused extends Error {}

/** The master key does not open the keys of a backup: nothing was restored. */
export class RestoreKeyMismatch extends Error {}

/** What `verify-backup` found; it passes only when every key opens and every credential verifies. */
export interface BackupReport {
  file: string
  schemaVersion: number
  keys: { total: number; opened: number; failed: string[] }
  credentials: number
  verified: number
  failed: { id: string; reason: string }[]
}

/** A backup that does not verify: the CLI prints the report inside its error and exits 1. */
export class BackupUnverified extends Error {
  constructor(readonly report: BackupReport) {
    const { keys, credentials, verified } = report
    super(
      keys.failed.length > 0
        ? `the master key does not open ${keys.failed.length} of the ${keys.total} keys in the backup: it is not the key they were sealed with`
        : `${credentials - verified} of the ${credentials} credentials in the backup do not verify`,
    )
  }
}

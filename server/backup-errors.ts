/**
 * The ways the backup commands (docs/backup.md) refuse or fail, apart from their code so that the CLI
 * can tell them without loading SQLite.
 */

/** A refusal the operator fixes (a wrong path, a data dir that is not empty): the CLI answers it as a usage error. */
export class BackupRefused extends Error {}

/** The master key does not open the keys of a backup: nothing was restored. */
export class RestoreKeyMismatch extends Error {}

/** What `verify-backup` found; it passes only when there are keys, every key opens and every credential verifies. */
export interface BackupReport {
  file: string
  /** Whether the file had a seal (always, unless `--unsealed` let a file without one through). */
  sealed: boolean
  schemaVersion: number
  keys: { total: number; opened: number; failed: string[] }
  credentials: number
  verified: number
  /** Data Integrity proofs checked, each with its credential (a credential verifies only when its proof does too). */
  proofs: number
  failed: { id: string; reason: string }[]
}

/** A backup that does not verify: the CLI prints the report inside its error and exits 1. */
export class BackupUnverified extends Error {
  constructor(readonly report: BackupReport) {
    const { keys, credentials, verified } = report
    super(
      keys.total === 0
        ? 'the backup holds no keys: the master key cannot be checked against it, and a server started on it would have nothing to sign with'
        : keys.failed.length > 0
          ? `the master key does not open ${keys.failed.length} of the ${keys.total} keys in the backup: it is not the key they were sealed with`
          : `${credentials - verified} of the ${credentials} credentials in the backup do not verify`,
    )
  }
}

/** Why a backup file is rejected before anything in it is used (docs/backup.md § The seal; docs/backup.md § The schema). */
export type BackupRejection = 'backup-unsealed' | 'backup-tampered' | 'backup-foreign-schema'

/**
 * A backup file that cannot be trusted: without a seal, changed after it was sealed, or with a schema the
 * migrations did not make. Nothing was restored. `details` goes into the CLI's error object as it is.
 */
export class BackupRejected extends Error {
  constructor(
    readonly code: BackupRejection,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message)
  }
}

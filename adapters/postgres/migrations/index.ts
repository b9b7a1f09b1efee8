import init from './0001_init.ts'
import clientAuthFailures from './0002_client_auth_failures.ts'
import webhooks from './0003_webhooks.ts'
import queueAndLookups from './0004_queue_and_lookups.ts'
import hotRowsUnchecked from './0005_hot_rows_unchecked.ts'
import credentialProofs from './0006_credential_proofs.ts'
import adminConsole from './0007_admin_console.ts'
import csvUploads from './0008_csv_uploads.ts'
import issuanceSearch from './0009_issuance_search.ts'
import adminPasskeys from './0010_admin_passkeys.ts'
import csvFiles from './0011_csv_files.ts'
import reissues from './0012_reissues.ts'
import issuanceResends from './0013_issuance_resends.ts'
import claimsAndExpiry from './0014_claims_and_expiry.ts'

/**
 * Schema migrations in order, each recorded in the `migrations` table of the schema. Append only: a
 * migration that has shipped is never edited. SQL lives in modules so that it bundles and loads the
 * same on every runtime without file access.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'client_auth_failures', sql: clientAuthFailures },
  { version: 3, name: 'webhooks', sql: webhooks },
  { version: 4, name: 'queue_and_lookups', sql: queueAndLookups },
  { version: 5, name: 'hot_rows_unchecked', sql: hotRowsUnchecked },
  { version: 6, name: 'credential_proofs', sql: credentialProofs },
  { version: 7, name: 'admin_console', sql: adminConsole },
  { version: 8, name: 'csv_uploads', sql: csvUploads },
  { version: 9, name: 'issuance_search', sql: issuanceSearch },
  { version: 10, name: 'admin_passkeys', sql: adminPasskeys },
  { version: 11, name: 'csv_files', sql: csvFiles },
  { version: 12, name: 'reissues', sql: reissues },
  { version: 13, name: 'issuance_resends', sql: issuanceResends },
  { version: 14, name: 'claims_and_expiry', sql: claimsAndExpiry },
]

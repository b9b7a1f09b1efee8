import init from './0001_init.ts'
import achievements from './0002_achievements.ts'
import issuing from './0003_issuing.ts'
import designs from './0004_designs.ts'
import apiKeys from './0005_api_keys.ts'
import randomIssuanceIds from './0006_random_issuance_ids.ts'
import apiKeyRevocation from './0007_api_key_revocation.ts'
import clientAuthFailures from './0008_client_auth_failures.ts'
import webhooks from './0009_webhooks.ts'
import signingJobsBySequence from './0010_signing_jobs_by_sequence.ts'
import issuancesBySequence from './0011_issuances_by_sequence.ts'
import credentialsByIssuanceSequence from './0012_credentials_by_issuance_sequence.ts'
import credentialProofs from './0013_credential_proofs.ts'
import adminConsole from './0014_admin_console.ts'
import csvUploads from './0015_csv_uploads.ts'
import issuanceSearch from './0016_issuance_search.ts'
import adminPasskeys from './0017_admin_passkeys.ts'
import csvFiles from './0018_csv_files.ts'
import reissues from './0019_reissues.ts'
import issuanceResends from './0020_issuance_resends.ts'
import claimsAndExpiry from './0021_claims_and_expiry.ts'

/**
 * Schema migrations in order; `version` is stored in `PRAGMA user_version`. Append only: a migration
 * that has shipped is never edited. SQL lives in modules (not .sql files) so that it bundles and loads
 * the same on every runtime without file access.
 */
export const MIGRATIONS: { version: number; name: string; sql: string }[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'achievements', sql: achievements },
  { version: 3, name: 'issuing', sql: issuing },
  { version: 4, name: 'designs', sql: designs },
  { version: 5, name: 'api_keys', sql: apiKeys },
  { version: 6, name: 'random_issuance_ids', sql: randomIssuanceIds },
  { version: 7, name: 'api_key_revocation', sql: apiKeyRevocation },
  { version: 8, name: 'client_auth_failures', sql: clientAuthFailures },
  { version: 9, name: 'webhooks', sql: webhooks },
  { version: 10, name: 'signing_jobs_by_sequence', sql: signingJobsBySequence },
  { version: 11, name: 'issuances_by_sequence', sql: issuancesBySequence },
  { version: 12, name: 'credentials_by_issuance_sequence', sql: credentialsByIssuanceSequence },
  { version: 13, name: 'credential_proofs', sql: credentialProofs },
  { version: 14, name: 'admin_console', sql: adminConsole },
  { version: 15, name: 'csv_uploads', sql: csvUploads },
  { version: 16, name: 'issuance_search', sql: issuanceSearch },
  { version: 17, name: 'admin_passkeys', sql: adminPasskeys },
  { version: 18, name: 'csv_files', sql: csvFiles },
  { version: 19, name: 'reissues', sql: reissues },
  { version: 20, name: 'issuance_resends', sql: issuanceResends },
  { version: 21, name: 'claims_and_expiry', sql: claimsAndExpiry },
]

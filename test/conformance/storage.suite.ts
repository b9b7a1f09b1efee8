/**
 * The storage port conformance suite: every storage adapter runs it (docs/architecture.md § Layers). One group of cases per
 * aggregate in `storage/*.cases.ts`; add a group by adding one line to GROUPS.
 *
 * @example
 * storageSuite({ name: 'memory', open: async () => { const storage = createMemoryStorage(); return { storage, close: () => storage.close() } } })
 */
import { describe } from 'node:test'
import { achievementCases } from './storage/achievements.cases.ts'
import { apiKeyCases } from './storage/api-keys.cases.ts'
import { clientAuthFailureCases } from './storage/client-auth-failures.cases.ts'
import { clientCases } from './storage/clients.cases.ts'
import { clubCases } from './storage/clubs.cases.ts'
import { keyCases } from './storage/keys.cases.ts'
import { transactionCases } from './storage/transactions.cases.ts'
import { designCases } from './storage/designs.cases.ts'
import { imageCases } from './storage/images.cases.ts'
import { outsideUnitCases } from './storage/outside-units.cases.ts'
import { credentialCases } from './storage/credentials.cases.ts'
import { eventCases } from './storage/events.cases.ts'
import { eventsBySubjectCases } from './storage/events-by-subject.cases.ts'
import { idempotencyCases } from './storage/idempotency.cases.ts'
import { issuanceCases } from './storage/issuances.cases.ts'
import { issuanceSearchCases } from './storage/issuance-search.cases.ts'
import { outboxCases } from './storage/outbox.cases.ts'
import { resendCases } from './storage/resends.cases.ts'
import { signingJobCases } from './storage/signing-jobs.cases.ts'
import { snapshotCases } from './storage/snapshots.cases.ts'
import { statusListCases } from './storage/status-lists.cases.ts'
import { webhookCases } from './storage/webhooks.cases.ts'
import { rowsAtOnceCases } from './storage/rows-at-once.cases.ts'
import { adminCases } from './storage/admins.cases.ts'
import { adminPasskeyCases } from './storage/admin-passkeys.cases.ts'
import { csvUploadCases } from './storage/csv-uploads.cases.ts'
import { walletExchangeAttemptCases } from './storage/wallet-exchange-attempts.cases.ts'
import { reissueCases } from './storage/reissues.cases.ts'
import { issuanceClaimCases } from './storage/issuance-claims.cases.ts'
import { expiryCases } from './storage/expiry.cases.ts'
import { activityCases, shareViewCases } from './storage/share-views.cases.ts'
import type { OpenStorage, SkipList, StorageCases } from './storage/harness.ts'

export type { OpenedStorage, OpenStorage, SkipList } from './storage/harness.ts'

const GROUPS: StorageCases[] = [
  clubCases,
  clientCases,
  clientAuthFailureCases,
  keyCases,
  transactionCases,
  achievementCases,
  snapshotCases,
  issuanceCases,
  issuanceSearchCases,
  credentialCases,
  signingJobCases,
  statusListCases,
  eventCases,
  eventsBySubjectCases,
  idempotencyCases,
  outboxCases,
  resendCases,
  apiKeyCases,
  designCases,
  imageCases,
  outsideUnitCases,
  webhookCases,
  rowsAtOnceCases,
  adminCases,
  adminPasskeyCases,
  csvUploadCases,
  walletExchangeAttemptCases,
  reissueCases,
  issuanceClaimCases,
  expiryCases,
  shareViewCases,
  activityCases,
]

export interface StorageSuiteOptions {
  /** Shown in the test names: `storage port › <name>`. */
  name: string
  /** A fresh, empty store for every test; `close` releases it (and removes its files). */
  open: OpenStorage
  /** Cases this adapter cannot pass, by exact name, each with the reason shown in the output. */
  skip?: SkipList
}

export function storageSuite({ name, open, skip }: StorageSuiteOptions): void {
  describe(`storage port › ${name}`, () => {
    for (const cases of GROUPS) cases(open, skip ? { skip } : {})
  })
}

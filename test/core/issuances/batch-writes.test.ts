/**
 * A batch's rows written in one go come out as writing them one by one made them: the
 * already-issued check sees the batch's earlier recipients, sequences and event ids follow the
 * recipients, and a signing round stores one credential per issuance with one event each. On the memory
 * storage and on a SQLite file.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createIssuer, defaultUrls } from '../../../index.ts'
import type { CoreIssuer } from '../../../core/core-issuer.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'
import { openTempSqlite } from '../../support/temp-sqlite.ts'

const ADAPTERS: { name: string; open: () => Promise<{ storage: StoragePort; close(): Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ storage: createMemoryStorage(), close: async () => {} }) },
  { name: 'sqlite file', open: openTempSqlite },
]

for (const adapter of ADAPTERS) {
  describe(`a batch written in one go (${adapter.name})`, () => {
    let issuer: CoreIssuer
    let opened: { storage: StoragePort; close(): Promise<void> }
    let templateId: number

    beforeEach(async () => {
      opened = await adapter.open()
      issuer = createIssuer({ storage: opened.storage, masterKey: MASTER_KEY, urls: defaultUrls(8787) })
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      templateId = (await issuer.achievements.create('chess', { name: 'Openings', description: 'Knows them.' })).id
    })
    afterEach(async () => {
      await issuer.close()
      await opened.close()
    })

    it('a recipient held by an issuance earlier in the same batch (by e-mail) is skipped with its id', async () => {
      const { result } = await issuer.issuances.issue('chess', {
        achievementFormId: templateId,
        recipients: [
          { externalUserId: 'ada', name: 'Ada', email: 'Ada@Example.org' },
          { name: 'Bob', email: 'bob@example.org' },
          { name: 'Ada again', email: 'ada@EXAMPLE.org' },
        ],
      })
      assert.deepStrictEqual(
        result.results.map((item) => item.status),
        ['issued', 'issued', 'skipped'],
      )
      const ada = (result.results[0] as { resourceId: number }).resourceId
      assert.deepStrictEqual(result.results[2], {
        ref: '2',
        status: 'skipped',
        error: { code: 'already-issued', message: 'The recipient already holds this achievement.', resourceId: ada },
      })
    })

    it('sequences and issued events follow the recipients; each credential is stored once with one event', async () => {
      const count = 300
      const recipients = Array.from({ length: count }, (_, i) => ({ externalUserId: `m${i}`, name: `M ${i}`, email: `m${i}@example.org` }))
      const { result } = await issuer.issuances.issue('chess', { achievementFormId: templateId, recipients })
      const ids = result.results.map((item) => (item as { resourceId: number }).resourceId)
      assert.equal(new Set(ids).size, count)
      const listed = await issuer.issuances.list('chess', { limit: '100' })
      assert.deepStrictEqual(
        listed.data.map((item) => item.id),
        ids.slice(-100).reverse(),
      )
      await issuer.worker.drain()
      const events = (await opened.storage.events.list('chess', { limit: 1000, beforeId: null })).reverse()
      const subjects = (type: string) => events.filter((event) => event.type === type).map((event) => Number(event.subject.id))
      assert.deepStrictEqual(subjects('issuance.issued'), ids)
      assert.deepStrictEqual([...subjects('issuance.credential_issued')].sort(), [...ids].sort())
      const eventIds = events.map((event) => Number(event.id))
      assert.deepStrictEqual(
        eventIds,
        [...eventIds].sort((a, b) => a - b),
      )
      assert.equal((await opened.storage.credentials.findByIssuances(ids)).length, count)
      assert.equal(await opened.storage.signingJobs.count(), 0)
    })
  })
}

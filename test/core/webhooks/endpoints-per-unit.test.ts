/**
 * Webhook endpoints are read once per club and unit of work while events are appended (docs/decisions/0030-several-nodes.md § Webhook endpoints while events are appended),
 * never kept beyond the unit: an endpoint created between
 * two batches gets the second batch's deliveries and none of the first's. On a real SQLite file; the
 * endpoint reads are counted through the unit of work.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { createIssuer, defaultUrls, type StoragePort } from '../../../index.ts'
import type { EventView } from '../../../core/events/present.ts'
import type { Page } from '../../../core/lists/cursor.ts'
import { createSqliteStorage } from '../../../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../../../adapters/sqlite/driver-better-sqlite3.ts'
import { MASTER_KEY } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

const dir = mkdtempSync(join(tmpdir(), 'clubcred-endpoints-per-unit-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** The storage, with every `webhookEndpoints.listByClub` made inside a unit of work counted. */
function countingStorage(base: StoragePort) {
  const counter = { reads: 0 }
  const storage: StoragePort = {
    ...base,
    transaction: (work, options) =>
      base.transaction(
        (tx) =>
          work({
            ...tx,
            webhookEndpoints: {
              ...tx.webhookEndpoints,
              listByClub: (club) => {
                counter.reads++
                return tx.webhookEndpoints.listByClub(club)
              },
            },
          }),
        options,
      ),
  }
  return { storage, counter }
}

describe('webhook endpoints while events are appended', () => {
  it('one read per unit, a delivery per event and endpoint, an endpoint created between batches sees only the later one', async () => {
    const { storage, counter } = countingStorage(createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'a.db')) }))
    const issuer = createIssuer({ storage, masterKey: MASTER_KEY, urls: defaultUrls(8787), webhooks: { allowPrivate: true } })
    try {
      await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
      const templateId = (await issuer.achievements.create('chess', { name: 'Openings', description: 'Knows them.' })).id
      const first = await issuer.webhooks.create({ club: 'chess', url: 'http://127.0.0.1:9/first', events: 'issuance.issued issuance.credential_issued' })

      counter.reads = 0
      const batchA = await issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(40, 'a') })
      assert.equal(batchA.result.summary.ok, 40)
      assert.equal(counter.reads, 1, 'one endpoint read for the 40 events of one unit')

      const second = await issuer.webhooks.create({ club: 'chess', url: 'http://127.0.0.1:9/second', events: 'issuance.issued' })
      counter.reads = 0
      const batchB = await issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(25, 'b') })
      assert.equal(batchB.result.summary.ok, 25)
      assert.equal(counter.reads, 1)

      counter.reads = 0
      await issuer.worker.drain()
      // The store unit appends 65 credential_issued events; the claim unit appends none.
      assert.equal(counter.reads, 1)

      const events: EventView[] = []
      for (let cursor: string | null = null; ;) {
        const page: Page<EventView> = await issuer.events.list('chess', { limit: '100', cursor })
        events.push(...page.data)
        cursor = page.meta.nextCursor
        if (cursor === null) break
      }
      assert.equal(events.length, 130)
      const idsOf = (type: string, batch: { result: { results: unknown[] } }) => {
        const issued = new Set(batch.result.results.map((item) => String((item as { resourceId: number }).resourceId)))
        return events
          .filter((event) => event.type === type && issued.has(event.subject.id))
          .map((event) => event.id)
          .sort()
      }
      const deliveredTo = async (id: string) => (await issuer.webhooks.deliveries(id, 1000)).map((delivery) => delivery.eventId).sort()
      const sorted = (ids: string[]) => [...ids].sort()
      assert.deepStrictEqual(
        await deliveredTo(first.id),
        sorted([
          ...idsOf('issuance.issued', batchA),
          ...idsOf('issuance.issued', batchB),
          ...idsOf('issuance.credential_issued', batchA),
          ...idsOf('issuance.credential_issued', batchB),
        ]),
      )
      assert.deepStrictEqual(await deliveredTo(second.id), sorted(idsOf('issuance.issued', batchB)))
      assert.equal((await deliveredTo(first.id)).length, 130)
    } finally {
      await issuer.close()
    }
  })
})

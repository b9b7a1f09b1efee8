import assert from 'node:assert/strict'
import { describe } from 'node:test'
import { StorageConflict } from '../../../core/errors.ts'
import type { WebhookDelivery, WebhookEndpoint } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'

const NOW = 1_900_000_000_000
const LEASE = 60_000

export function anEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: 'wh_AAAAAAAAAAAAAAAA',
    club: 'chess',
    url: 'https://hooks.example.com/clubcred',
    events: ['issuance.issued', 'issuance.revoked'],
    sealedSecret: 'v1.aXY.c2VhbGVk',
    previousSealedSecret: null,
    previousSecretUntil: null,
    enabled: true,
    consecutiveGiveUps: 0,
    createdAt: NOW,
    ...overrides,
  }
}

/** WebhookEndpointStore and WebhookDeliveryStore: core/ports/storage.ts. */
export function webhookCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('webhooks', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    const insert = (...endpoints: WebhookEndpoint[]) =>
      storage().transaction(async (tx) => {
        for (const endpoint of endpoints) await tx.webhookEndpoints.insert(endpoint)
      })
    /** Enqueues `count` deliveries to the endpoint in one unit; returns them as stored. */
    const enqueue = async (endpointId: string, count: number, at = NOW, club = 'chess'): Promise<WebhookDelivery[]> => {
      const deliveries = Array.from({ length: count }, (_, i) => ({
        endpointId,
        club,
        eventId: 100 + i,
        payload: `{"type":"issuance.issued","n":${i},"é":"🏆"}`,
        nextAttemptAt: at,
        createdAt: at,
      }))
      const ids = await storage().transaction((tx) => tx.webhookDeliveries.enqueueMany(deliveries))
      const fresh = { attempts: 0, leaseUntil: null, deliveredAt: null, givenUpAt: null, lastStatus: null, lastError: null }
      return deliveries.map((delivery, i) => ({ ...delivery, id: ids[i]!, ...fresh }))
    }
    /** The endpoints' deliveries neither delivered nor given up. */
    const pending = async (...endpointIds: string[]) =>
      (await Promise.all(endpointIds.map((id) => storage().webhookDeliveries.listByEndpoint(id, 1000))))
        .flat()
        .filter((delivery) => delivery.deliveredAt === null && delivery.givenUpAt === null)
    const claim = (now: number, limit = 100, perEndpoint = 100, perClub = 100) =>
      storage().transaction((tx) => tx.webhookDeliveries.claimDue(now, LEASE, limit, { perEndpoint, perClub }))

    it('an endpoint round-trips as a plain object; absent ones are null; a second insert of the id is StorageConflict', async () => {
      const endpoint = anEndpoint({ events: null })
      await insert(endpoint)
      const found = await storage().webhookEndpoints.findById(endpoint.id)
      assert.deepStrictEqual(found, endpoint)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(await storage().webhookEndpoints.findById('wh_missing'), null)
      await assert.rejects(insert(anEndpoint({ url: 'https://other.example.com/' })), StorageConflict)
      assert.deepStrictEqual(await storage().webhookEndpoints.findById(endpoint.id), endpoint)
    })

    it('listByClub: the club only, oldest first, then by id', async () => {
      await insert(anEndpoint({ id: 'wh_b', createdAt: NOW }), anEndpoint({ id: 'wh_a', createdAt: NOW }), anEndpoint({ id: 'wh_0', createdAt: NOW - 1 }))
      await insert(anEndpoint({ id: 'wh_go', club: 'go' }))
      assert.deepEqual(
        (await storage().webhookEndpoints.listByClub('chess')).map((e) => e.id),
        ['wh_0', 'wh_a', 'wh_b'],
      )
      assert.deepEqual(await storage().webhookEndpoints.listByClub('none'), [])
    })

    it('update sets the listed fields only and returns the endpoint; absent is null', async () => {
      const endpoint = anEndpoint()
      await insert(endpoint)
      const changes = { enabled: false, events: null, previousSealedSecret: 'v1.b2xk.b2xk', previousSecretUntil: NOW + 1, consecutiveGiveUps: 3 }
      const updated = await storage().transaction((tx) => tx.webhookEndpoints.update(endpoint.id, changes))
      assert.deepStrictEqual(updated, { ...endpoint, ...changes })
      assert.deepStrictEqual(await storage().webhookEndpoints.findById(endpoint.id), { ...endpoint, ...changes })
      assert.equal(await storage().transaction((tx) => tx.webhookEndpoints.update('wh_missing', { enabled: true })), null)
    })

    it('delete removes the endpoint and its deliveries', async () => {
      await insert(anEndpoint(), anEndpoint({ id: 'wh_keep' }))
      await enqueue('wh_AAAAAAAAAAAAAAAA', 2)
      const kept = await enqueue('wh_keep', 1)
      assert.equal(await storage().transaction((tx) => tx.webhookEndpoints.delete('wh_AAAAAAAAAAAAAAAA')), true)
      assert.equal(await storage().transaction((tx) => tx.webhookEndpoints.delete('wh_AAAAAAAAAAAAAAAA')), false)
      assert.deepEqual(await storage().webhookDeliveries.listByEndpoint('wh_AAAAAAAAAAAAAAAA', 10), [])
      assert.deepStrictEqual(await storage().webhookDeliveries.listByEndpoint('wh_keep', 10), kept)
      assert.deepStrictEqual(
        (await claim(NOW)).map((x) => x.id),
        [kept[0]!.id],
        "the deleted endpoint's deliveries are never claimed",
      )
    })

    it('deliveries: increasing ids, listed newest first as plain objects, limited', async () => {
      await insert(anEndpoint())
      const stored = await enqueue('wh_AAAAAAAAAAAAAAAA', 3)
      assert.ok(stored[0]!.id < stored[1]!.id && stored[1]!.id < stored[2]!.id)
      const listed = await storage().webhookDeliveries.listByEndpoint('wh_AAAAAAAAAAAAAAAA', 2)
      assert.deepStrictEqual(listed, [stored[2], stored[1]])
      assert.equal(Object.getPrototypeOf(listed[0]), Object.prototype)
    })

    it('deliveries: the next page is strictly below beforeId, of this endpoint only', async () => {
      await insert(anEndpoint(), anEndpoint({ id: 'wh_other' }))
      const stored = await enqueue('wh_AAAAAAAAAAAAAAAA', 5)
      await enqueue('wh_other', 2)
      const list = (beforeId: number | null, limit = 2) => storage().webhookDeliveries.listByEndpoint('wh_AAAAAAAAAAAAAAAA', limit, beforeId)
      assert.deepStrictEqual(await list(null), [stored[4], stored[3]])
      assert.deepStrictEqual(await list(stored[3]!.id), [stored[2], stored[1]])
      assert.deepStrictEqual(await list(stored[1]!.id), [stored[0]])
      assert.deepStrictEqual(await list(stored[0]!.id), [])
    })

    it('claimDue leases due deliveries lowest id first, counts the attempt, and skips leased, future, ended and disabled ones', async () => {
      await insert(anEndpoint(), anEndpoint({ id: 'wh_off', enabled: false }))
      const [a, b, c, d] = await enqueue('wh_AAAAAAAAAAAAAAAA', 4)
      const [off] = await enqueue('wh_off', 1)
      await storage().transaction(async (tx) => {
        await tx.webhookDeliveries.markFailed(b!.id, { status: 500, error: 'HTTP 500', nextAttemptAt: NOW + 5000 })
        await tx.webhookDeliveries.markDelivered(c!.id, NOW, 204)
        await tx.webhookDeliveries.markGivenUp(d!.id, NOW, { status: null, error: 'timeout' })
      })
      const claimed = await claim(NOW)
      assert.deepStrictEqual(claimed, [{ ...a!, attempts: 1, leaseUntil: NOW + LEASE }])
      assert.deepEqual(await claim(NOW + 1), [], 'leased')
      assert.deepEqual(
        (await claim(NOW + 5000)).map((x) => [x.id, x.attempts, x.lastStatus, x.lastError]),
        [[b!.id, 1, 500, 'HTTP 500']],
      )
      assert.deepEqual(
        (await claim(NOW + LEASE)).map((x) => [x.id, x.attempts]),
        [[a!.id, 2]],
        'a lease that ended is claimed again',
      )
      assert.deepStrictEqual(
        (await pending('wh_AAAAAAAAAAAAAAAA', 'wh_off')).map((x) => x.id).sort((x, y) => x - y),
        [a!.id, b!.id, off!.id],
      )
    })

    it("claimDue takes each endpoint's earliest due first, then the lowest id, and returns them in the order taken", async () => {
      await insert(anEndpoint(), anEndpoint({ id: 'wh_other' }))
      const [late] = await enqueue('wh_AAAAAAAAAAAAAAAA', 1, NOW - 10)
      const [early] = await enqueue('wh_other', 1, NOW - 30)
      const [a, b] = await enqueue('wh_AAAAAAAAAAAAAAAA', 2, NOW - 20)
      assert.deepEqual(
        (await claim(NOW, 100)).map((x) => x.id),
        [early!.id, a!.id, b!.id, late!.id],
      )
      await storage().transaction(async (tx) => {
        const retryAt = [
          [late!, 50],
          [b!, 60],
          [a!, 90],
          [early!, 90],
        ] as const
        for (const [x, delay] of retryAt) await tx.webhookDeliveries.markFailed(x.id, { status: 500, error: 'HTTP 500', nextAttemptAt: NOW + delay })
      })
      assert.deepEqual(
        (await claim(NOW + 100, 3)).map((x) => x.id),
        [late!.id, early!.id, b!.id],
        "the limit keeps each endpoint's earliest due, the endpoints in turn",
      )
    })

    it('markDelivered, markFailed and markGivenUp record the outcome and free the lease', async () => {
      await insert(anEndpoint())
      const [a, b, c] = await enqueue('wh_AAAAAAAAAAAAAAAA', 3)
      await claim(NOW)
      await storage().transaction(async (tx) => {
        await tx.webhookDeliveries.markDelivered(a!.id, NOW + 1, 200)
        await tx.webhookDeliveries.markFailed(b!.id, { status: null, error: 'timeout', nextAttemptAt: NOW + 9 })
        await tx.webhookDeliveries.markGivenUp(c!.id, NOW + 2, { status: 410, error: 'HTTP 410' })
      })
      const byId = new Map((await storage().webhookDeliveries.listByEndpoint('wh_AAAAAAAAAAAAAAAA', 10)).map((x) => [x.id, x]))
      assert.deepStrictEqual(byId.get(a!.id), { ...a!, attempts: 1, deliveredAt: NOW + 1, lastStatus: 200 })
      assert.deepStrictEqual(byId.get(b!.id), { ...b!, attempts: 1, nextAttemptAt: NOW + 9, lastError: 'timeout' })
      assert.deepStrictEqual(byId.get(c!.id), { ...c!, attempts: 1, givenUpAt: NOW + 2, lastStatus: 410, lastError: 'HTTP 410' })
    })

    it('claimDue takes at most perEndpoint per endpoint, counting the ones still leased, and at most limit', async () => {
      await insert(anEndpoint({ id: 'wh_slow' }), anEndpoint({ id: 'wh_fast' }))
      await enqueue('wh_slow', 5)
      await enqueue('wh_fast', 5)
      const first = await claim(NOW, 100, 2)
      assert.deepEqual(first.map((x) => x.endpointId).sort(), ['wh_fast', 'wh_fast', 'wh_slow', 'wh_slow'])
      await storage().transaction((tx) => tx.webhookDeliveries.markDelivered(first.find((x) => x.endpointId === 'wh_fast')!.id, NOW, 200))
      assert.deepEqual(
        (await claim(NOW + 1, 100, 2)).map((x) => x.endpointId),
        ['wh_fast'],
        'wh_slow still holds its 2',
      )
      assert.equal((await claim(NOW + LEASE + 2, 3, 2)).length, 3, 'limit')
    })

    it('claimDue takes at most perClub per club over all its endpoints, counting the ones still leased, also of disabled endpoints', async () => {
      await insert(anEndpoint({ id: 'wh_c1' }), anEndpoint({ id: 'wh_c2' }), anEndpoint({ id: 'wh_c3' }), anEndpoint({ id: 'wh_g1', club: 'go' }))
      for (const id of ['wh_c1', 'wh_c2', 'wh_c3']) await enqueue(id, 5)
      await enqueue('wh_g1', 5, NOW, 'go')
      const first = await claim(NOW, 100, 4, 5)
      assert.deepEqual(
        first.map((x) => x.club),
        ['chess', 'go', 'chess', 'go', 'chess', 'go', 'chess', 'go', 'chess'],
        'the clubs in turn; go stops at its endpoint cap, chess at its club cap',
      )
      assert.deepEqual(await claim(NOW + 1, 100, 4, 5), [])
      const c1 = first.find((x) => x.endpointId === 'wh_c1')!
      await storage().transaction(async (tx) => {
        await tx.webhookDeliveries.markDelivered(c1.id, NOW + 1, 200)
        await tx.webhookEndpoints.update('wh_c2', { enabled: false })
      })
      const next = await claim(NOW + 2, 100, 4, 5)
      assert.deepEqual(
        next.map((x) => x.club),
        ['chess'],
        "a freed slot of chess; wh_c2's leased deliveries still count for chess",
      )
    })

    it('claimDue gives free slots to the club with the fewest in flight, within it to the endpoint with the fewest, then earliest due', async () => {
      await insert(anEndpoint({ id: 'wh_c1' }), anEndpoint({ id: 'wh_c2' }), anEndpoint({ id: 'wh_g1', club: 'go' }))
      const c1 = await enqueue('wh_c1', 3, NOW - 100)
      const c2 = await enqueue('wh_c2', 3, NOW - 90)
      const g1 = await enqueue('wh_g1', 3, NOW - 10, 'go')
      assert.deepEqual(
        (await claim(NOW, 3)).map((x) => x.id),
        [c1[0]!.id, g1[0]!.id, c2[0]!.id],
        'chess due first, but go takes the second slot',
      )
      // chess holds 2, go 1: go's next is level with chess's next, and go's endpoint holds fewer than its rivals' next.
      assert.deepEqual(
        (await claim(NOW, 4)).map((x) => x.id),
        [g1[1]!.id, c1[1]!.id, g1[2]!.id, c2[1]!.id],
      )
    })

    it('concurrent claims never return the same delivery, and never exceed perEndpoint in all', async () => {
      await insert(anEndpoint())
      await enqueue('wh_AAAAAAAAAAAAAAAA', 20)
      const claims = await Promise.all(
        Array.from({ length: 8 }, () =>
          storage().transaction(async (tx) => {
            await turns(1)
            return tx.webhookDeliveries.claimDue(NOW, LEASE, 3, { perEndpoint: 6, perClub: 100 })
          }),
        ),
      )
      const ids = claims.flat().map((x) => x.id)
      assert.equal(new Set(ids).size, ids.length, 'no delivery twice')
      assert.equal(ids.length, 6)
    })

    it('concurrent claims never exceed perClub in all', async () => {
      await insert(anEndpoint({ id: 'wh_c1' }), anEndpoint({ id: 'wh_c2' }), anEndpoint({ id: 'wh_c3' }))
      for (const id of ['wh_c1', 'wh_c2', 'wh_c3']) await enqueue(id, 6)
      const claims = await Promise.all(
        Array.from({ length: 8 }, () =>
          storage().transaction(async (tx) => {
            await turns(1)
            return tx.webhookDeliveries.claimDue(NOW, LEASE, 2, { perEndpoint: 100, perClub: 7 })
          }),
        ),
      )
      const ids = claims.flat().map((x) => x.id)
      assert.equal(new Set(ids).size, ids.length, 'no delivery twice')
      assert.equal(ids.length, 7)
    })

    it('a rolled-back enqueue leaves nothing', async () => {
      await insert(anEndpoint())
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.webhookDeliveries.enqueueMany([
            {
              endpointId: 'wh_AAAAAAAAAAAAAAAA',
              club: 'chess',
              eventId: 1,
              payload: '{}',
              nextAttemptAt: NOW,
              createdAt: NOW,
            },
          ])
          throw new Error('boom')
        }),
        /boom/,
      )
      assert.deepStrictEqual(await storage().webhookDeliveries.listByEndpoint('wh_AAAAAAAAAAAAAAAA', 10), [])
      assert.deepStrictEqual(await claim(NOW), [])
    })
  })
}

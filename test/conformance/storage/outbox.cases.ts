import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { OutboxMessage } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, turns, type CaseOptions, type OpenStorage } from './harness.ts'

const NOW = 1_900_000_000_000
const LEASE = 30_000

type NewMessage = Omit<OutboxMessage, 'id' | 'attempts' | 'sentAt' | 'lastError'>

function aMessage(overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    club: 'chess',
    issuanceId: 17,
    to: 'Ada@Example.org',
    subject: 'Your badge « Opening Theory » 🏆',
    text: 'Hello Ada,\nyour badge: https://badges.example/share/abc\n',
    html: '<p>Hello Ada,</p><p><a href="https://badges.example/share/abc">your badge</a></p>',
    nextAttemptAt: NOW,
    createdAt: NOW,
    ...overrides,
  }
}

/** OutboxStore: core/ports/storage.ts. */
export function outboxCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('outbox', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** Enqueues the messages in one unit; returns them as stored (with id, attempts, sentAt, lastError). */
    async function enqueue(...messages: NewMessage[]): Promise<OutboxMessage[]> {
      const ids = await storage().transaction((tx) => tx.outbox.enqueueMany(messages))
      return messages.map((message, i) => ({ ...message, id: ids[i]!, attempts: 0, sentAt: null, lastError: null }))
    }
    const claimDue = (now: number, limit = 10, maxAttempts = 5, leaseMs = LEASE) =>
      storage().transaction((tx) => tx.outbox.claimDue(now, leaseMs, limit, maxAttempts))
    const leased = (message: OutboxMessage, now: number, leaseMs = LEASE): OutboxMessage => ({
      ...message,
      attempts: message.attempts + 1,
      nextAttemptAt: now + leaseMs,
    })

    it('an enqueued message is claimed back as enqueued, unsent and untried until then, as a plain object', async () => {
      const [message] = await enqueue(aMessage())
      const claimed = await claimDue(NOW)
      assert.deepStrictEqual(claimed, [leased(message!, NOW)])
      assert.equal(Object.getPrototypeOf(claimed[0]), Object.prototype)
    })

    it('enqueueMany hands out distinct ids, increasing in the order given and from call to call', async () => {
      const ids = [...(await enqueue(aMessage(), aMessage())), ...(await enqueue(aMessage({ issuanceId: 18 })))].map((message) => message.id)
      assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids ${ids.join(', ')}`)
    })

    it('claimDue with nothing due returns []', async () => {
      assert.deepStrictEqual(await claimDue(NOW), [])
      await enqueue(aMessage({ nextAttemptAt: NOW + 1 }))
      assert.deepStrictEqual(await claimDue(NOW), [])
    })

    it('claimDue leases the messages due at now, oldest first, at most limit: attempts + 1, nextAttemptAt = now + leaseMs', async () => {
      const stored = await enqueue(
        aMessage({ nextAttemptAt: NOW - 2_000, createdAt: NOW - 3_000 }),
        aMessage({ nextAttemptAt: NOW - 1_000, createdAt: NOW - 2_000, issuanceId: 18 }),
        aMessage({ nextAttemptAt: NOW, createdAt: NOW - 1_000 }),
        aMessage({ nextAttemptAt: NOW + 1, createdAt: NOW }),
      )
      assert.deepStrictEqual(await claimDue(NOW, 2), [leased(stored[0]!, NOW), leased(stored[1]!, NOW)])
      assert.deepStrictEqual(await claimDue(NOW, 2), [leased(stored[2]!, NOW)])
      assert.deepStrictEqual(await claimDue(NOW + 1, 10), [leased(stored[3]!, NOW + 1)], 'the leased ones wait for their leases')
    })

    it('a claimed message is not claimed again before its lease ends, and is claimed again when it does', async () => {
      const [message] = await enqueue(aMessage())
      const first = leased(message!, NOW)
      assert.deepStrictEqual(await claimDue(NOW), [first])
      assert.deepStrictEqual(await claimDue(NOW + LEASE - 1), [])
      assert.deepStrictEqual(await claimDue(NOW + LEASE), [leased(first, NOW + LEASE)])
    })

    it('a message marked sent is never claimed again', async () => {
      const [message, other] = await enqueue(aMessage(), aMessage({ issuanceId: 18 }))
      await claimDue(NOW)
      await storage().transaction((tx) => tx.outbox.markSent(message!.id, NOW + 5))
      assert.deepStrictEqual(
        (await claimDue(NOW + 100 * LEASE)).map((m) => m.id),
        [other!.id],
      )
    })

    it('markFailed records the error and the next attempt time, keeping the attempts', async () => {
      const [message] = await enqueue(aMessage())
      await claimDue(NOW)
      await storage().transaction((tx) => tx.outbox.markFailed(message!.id, '421 try again later', NOW + 60_000))
      const failed = { ...message!, attempts: 1, nextAttemptAt: NOW + 60_000, lastError: '421 try again later' }
      assert.deepStrictEqual(await claimDue(NOW + 59_999), [])
      assert.deepStrictEqual(await claimDue(NOW + 60_000), [leased(failed, NOW + 60_000)])
    })

    it('a message with maxAttempts attempts is not claimed any more', async () => {
      const [message] = await enqueue(aMessage())
      let now = NOW
      for (let attempt = 1; attempt <= 3; attempt++) {
        const claimed = await claimDue(now, 10, 3)
        assert.deepStrictEqual(
          claimed.map((m) => [m.id, m.attempts]),
          [[message!.id, attempt]],
        )
        await storage().transaction((tx) => tx.outbox.markFailed(message!.id, `failure ${attempt}`, now + 1))
        now += 1
      }
      assert.deepStrictEqual(await claimDue(now + LEASE, 10, 3), [])
      assert.equal((await claimDue(now + LEASE, 10, 4))[0]?.attempts, 4)
    })

    it('of concurrent units claiming due messages, none gets a message another got', async () => {
      await enqueue(...Array.from({ length: 12 }, (_, i) => aMessage({ issuanceId: i })))
      const claims = await Promise.all(
        Array.from({ length: 6 }, () =>
          storage().transaction(async (tx) => {
            const claimed = await tx.outbox.claimDue(NOW, LEASE, 3, 5)
            await turns(1)
            return claimed
          }),
        ),
      )
      const ids = claims.flat().map((message) => message.id)
      assert.equal(ids.length, 12)
      assert.equal(new Set(ids).size, 12)
    })

    it('an enqueue, a claim and a markSent in a rolled-back unit are undone', async () => {
      const [message] = await enqueue(aMessage())
      const [sent] = await enqueue(aMessage({ issuanceId: 18 }))
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.outbox.enqueueMany([aMessage({ subject: 'rolled back' })])
          assert.equal((await tx.outbox.claimDue(NOW, LEASE, 10, 5)).length, 3)
          await tx.outbox.markSent(sent!.id, NOW)
          await tx.outbox.markFailed(message!.id, 'x', NOW + 1)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await claimDue(NOW), [leased(message!, NOW), leased(sent!, NOW)], 'neither marked, and no third message')
    })

    it('changing an enqueued or claimed message changes nothing stored', async () => {
      const input = aMessage()
      const [stored] = await enqueue(input)
      input.text = 'mutated'
      const [claimed] = await claimDue(NOW)
      assert.deepStrictEqual(claimed, leased(stored!, NOW))
      assert.equal(claimed?.text, aMessage().text)
      claimed!.attempts = 99
      claimed!.text = 'mutated after claim'
      assert.deepStrictEqual(await claimDue(NOW + LEASE), [leased(leased(stored!, NOW), NOW + LEASE)])
    })
  })
}

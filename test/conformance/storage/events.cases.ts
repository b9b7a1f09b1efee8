import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { ClubEvent } from '../../../core/ports/storage.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

function anEvent(overrides: Partial<Omit<ClubEvent, 'id'>> = {}): Omit<ClubEvent, 'id'> {
  return { club: 'chess', type: 'issuance.issued', subject: { type: 'issuance', id: '17' }, occurredAt: 1_900_000_000_000, ...overrides }
}

/** EventStore: core/ports/storage.ts. */
export function eventCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('events', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    /** Appends the events in one unit; returns them as stored (with their ids). */
    async function append(...events: Omit<ClubEvent, 'id'>[]): Promise<ClubEvent[]> {
      return storage().transaction(async (tx) => {
        const stored: ClubEvent[] = []
        for (const event of events) stored.push({ ...event, id: await tx.events.append(event) })
        return stored
      })
    }
    const list = (club: string, limit: number, beforeId: number | null = null) => storage().events.list(club, { limit, beforeId })

    it('an appended event of each type is listed back equal, as a plain object', async () => {
      const stored = await append(
        anEvent({ type: 'issuance.issued', subject: { type: 'issuance', id: '1' }, occurredAt: 1 }),
        anEvent({ type: 'issuance.credential_issued', subject: { type: 'issuance', id: '1' }, occurredAt: 2 }),
        anEvent({ type: 'issuance.revoked', subject: { type: 'issuance', id: '1' }, occurredAt: 3 }),
      )
      const listed = await list('chess', 10)
      assert.deepStrictEqual(listed, [...stored].reverse())
      assert.equal(Object.getPrototypeOf(listed[0]), Object.prototype)
      assert.equal(Object.getPrototypeOf(listed[0]?.subject), Object.prototype)
    })

    it('append hands out distinct increasing ids, within a unit and across units', async () => {
      const ids = [...(await append(anEvent(), anEvent())), ...(await append(anEvent({ club: 'go' }))), ...(await append(anEvent()))].map((event) => event.id)
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids ${ids.join(', ')}`)
    })

    it('list of a club without events returns []', async () => {
      assert.deepStrictEqual(await list('chess', 10), [])
      await append(anEvent({ club: 'go' }))
      assert.deepStrictEqual(await list('chess', 10), [])
    })

    it("list returns the club's events highest id first, at most limit, whatever their occurredAt", async () => {
      const stored = await append(anEvent({ occurredAt: 30 }), anEvent({ club: 'go' }), anEvent({ occurredAt: 10 }), anEvent({ occurredAt: 20 }))
      assert.deepStrictEqual(await list('chess', 2), [stored[3], stored[2]])
      assert.deepStrictEqual(await list('chess', 10), [stored[3], stored[2], stored[0]])
      assert.deepStrictEqual(await list('go', 10), [stored[1]])
    })

    it('keyset pages by beforeId cover every event once, and events appended meanwhile shift nothing', async () => {
      const stored = await append(...Array.from({ length: 7 }, (_, i) => anEvent({ subject: { type: 'issuance', id: String(i) } })))
      const seen: ClubEvent[] = []
      let beforeId: number | null = null
      for (let page = 0; page < 10; page++) {
        const rows = await list('chess', 3, beforeId)
        if (rows.length === 0) break
        seen.push(...rows)
        beforeId = rows.at(-1)!.id
        if (page === 0) await append(anEvent({ type: 'issuance.revoked' }))
      }
      assert.deepStrictEqual(seen, [...stored].reverse())
    })

    it('list below the lowest id returns []', async () => {
      const [first] = await append(anEvent(), anEvent())
      assert.deepStrictEqual(await list('chess', 10, first!.id), [])
    })

    it('an event appended in a rolled-back unit is gone', async () => {
      const [kept] = await append(anEvent())
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.events.append(anEvent({ type: 'issuance.revoked' }))
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await list('chess', 10), [kept])
    })

    it('changing an appended or listed event changes nothing stored', async () => {
      const input = anEvent()
      const [stored] = await append(input)
      input.subject.id = 'mutated'
      const [listed] = await list('chess', 1)
      assert.deepStrictEqual(listed, { ...anEvent(), id: stored!.id })
      listed!.subject.id = 'mutated after read'
      assert.deepStrictEqual(await list('chess', 1), [{ ...anEvent(), id: stored!.id }])
    })
  })
}

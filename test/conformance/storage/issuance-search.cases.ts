import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { Issuance, Recipient } from '../../../core/issuances/issuance.ts'
import type { IssuanceSearch } from '../../../core/ports/storage.ts'
import type { IssuanceStatus } from '../../../core/issuances/present.ts'
import { validUntilOf } from '../../../core/credentials/valid-until.ts'
import { caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'
import { anIssuance, seedTemplate, type IssuingSeed } from './issuances.cases.ts'

/** Half a second past a whole second: validUntil is rounded up to the second, so the rounding shows. */
const NOW = 1_900_000_100_500

interface Made {
  state: 'pending' | 'signed'
  expiresAt?: number | null
  revoked?: boolean
}

/** IssuanceStore.search and countByStatus: core/ports/storage.ts. */
export function issuanceSearchCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('issuance search', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)
    let slot = 0

    /** An issuance as core leaves it: queued with its job, then signed (credential stored, job done) or not, then revoked or not. */
    async function make(seed: IssuingSeed, recipient: Recipient, { state, expiresAt = null, revoked = false }: Made): Promise<Issuance> {
      const issuance = await storage().transaction(async (tx) => {
        const stored = await tx.issuances.insert(anIssuance(seed, { recipient, expiresAt }))
        await tx.signingJobs.enqueueMany([{ issuanceId: stored.id, club: seed.club }])
        return stored
      })
      if (state === 'signed') {
        slot++
        await storage().transaction(async (tx) => {
          await tx.credentials.insertMany([
            {
              id: `00000000-0000-4000-8000-${String(slot).padStart(12, '0')}`,
              issuanceId: issuance.id,
              club: seed.club,
              jwt: 'e30.e30.c2ln',
              issuedAt: 1_900_000_001_000,
              validUntil: validUntilOf(expiresAt),
              statusListId: 1,
              statusListIndex: slot,
              proof: { state: 'pending' },
            },
          ])
          await tx.signingJobs.completeMany([issuance.id])
        })
      }
      if (revoked) await storage().transaction((tx) => tx.issuances.revoke(seed.club, issuance.id, 1_900_000_002_000, null))
      return revoked ? { ...issuance, revokedAt: 1_900_000_002_000 } : issuance
    }

    const person = (name: string, email: string, externalUserId: string | null = null): Recipient => ({ name, email, externalUserId })
    const query = (overrides: Partial<IssuanceSearch> = {}): IssuanceSearch => ({
      limit: 100,
      afterSequence: null,
      achievementId: null,
      status: null,
      now: NOW,
      recipient: null,
      ...overrides,
    })
    const ids = (rows: Issuance[]) => rows.map((row) => row.id)
    const newestFirst = (...rows: Issuance[]) => [...rows].sort((a, b) => b.sequence - a.sequence).map((row) => row.id)
    /** Every page of `limit` rows, following the cursor (the last row's sequence) to the end. */
    async function allPages(club: string, search: IssuanceSearch): Promise<{ pages: number; ids: number[] }> {
      const found: number[] = []
      let afterSequence: number | null = null
      for (let pages = 1; ; pages++) {
        const page: Issuance[] = await storage().issuances.search(club, { ...search, afterSequence })
        found.push(...ids(page))
        if (page.length < search.limit) return { pages, ids: found }
        afterSequence = page.at(-1)!.sequence
      }
    }

    /** One club, two templates, an issuance of each status (and the edges of each), and another club. */
    async function world() {
      const a = await seedTemplate(storage())
      const b = await seedTemplate(storage(), 'chess', { withClub: false })
      const go = await seedTemplate(storage(), 'go')
      const at = {
        validForever: await make(a, person('Ada Lovelace', 'ada@example.org', 'm-1'), { state: 'signed' }),
        validUntilLater: await make(b, person('Alan Turing', 'alan@example.org', 'm-2'), { state: 'signed', expiresAt: NOW + 60_000 }),
        // Its expiresAt passed, but rounded up to the second, as the credential's validUntil, it is still valid.
        validRoundedUp: await make(a, person('Grace Hopper', 'grace@example.org'), { state: 'signed', expiresAt: NOW - 400 }),
        expired: await make(a, person('Edsger Dijkstra', 'edsger@example.org', 'm-3'), { state: 'signed', expiresAt: NOW - 60_000 }),
        expiredJustNow: await make(b, person('Barbara Liskov', 'barbara@example.org'), { state: 'signed', expiresAt: NOW - 500 }),
        pending: await make(a, person('김민수', 'minsu@example.org', 'm-4'), { state: 'pending' }),
        // Unsigned with its time passed: pending, not expired (no credential to expire yet).
        pendingPastExpiry: await make(b, person('김민지', 'minji@example.org'), { state: 'pending', expiresAt: NOW - 60_000 }),
        revokedSigned: await make(a, person('Ada Byron', 'ADA@example.org', 'm-1'), { state: 'signed', expiresAt: NOW - 60_000, revoked: true }),
        revokedPending: await make(b, person('이서연', 'seoyeon@example.org'), { state: 'pending', revoked: true }),
        otherClub: await make(go, person('Ada Lovelace', 'ada@example.org', 'm-1'), { state: 'pending' }),
      }
      return { a, b, go, at }
    }

    it('each status finds exactly the issuances of that status at now, newest first, and countByStatus counts the same', async () => {
      const { at } = await world()
      const expected: Record<IssuanceStatus, Issuance[]> = {
        valid: [at.validForever, at.validUntilLater, at.validRoundedUp],
        expired: [at.expired, at.expiredJustNow],
        pending: [at.pending, at.pendingPastExpiry],
        revoked: [at.revokedSigned, at.revokedPending],
      }
      for (const [status, rows] of Object.entries(expected) as [IssuanceStatus, Issuance[]][]) {
        assert.deepStrictEqual(ids(await storage().issuances.search('chess', query({ status }))), newestFirst(...rows), status)
      }
      assert.deepStrictEqual(await storage().issuances.countByStatus('chess', NOW), { total: 9, pending: 2, revoked: 2, expired: 2 })
      assert.deepStrictEqual(ids(await storage().issuances.search('chess', query())), newestFirst(...Object.values(expected).flat()))
      // A minute later, the one valid until then has expired too.
      const later = await storage().issuances.search('chess', query({ status: 'expired', now: NOW + 61_000 }))
      assert.deepStrictEqual(ids(later), newestFirst(at.expired, at.expiredJustNow, at.validUntilLater, at.validRoundedUp))
      assert.equal((await storage().issuances.countByStatus('chess', NOW + 61_000)).expired, 4)
    })

    it('an issuance signed while listed moves from pending to valid; a revoked one leaves valid for revoked', async () => {
      const { a } = await world()
      const late = await make(a, person('Late Comer', 'late@example.org'), { state: 'pending' })
      assert.ok(ids(await storage().issuances.search('chess', query({ status: 'pending' }))).includes(late.id))
      await storage().transaction(async (tx) => {
        await tx.credentials.insertMany([
          {
            id: '00000000-0000-4000-8000-999999999999',
            issuanceId: late.id,
            club: 'chess',
            jwt: 'e30.e30.c2ln',
            issuedAt: 1,
            validUntil: null,
            statusListId: 2,
            statusListIndex: 1,
            proof: { state: 'pending' },
          },
        ])
        await tx.signingJobs.completeMany([late.id])
      })
      assert.ok(!ids(await storage().issuances.search('chess', query({ status: 'pending' }))).includes(late.id))
      assert.equal(ids(await storage().issuances.search('chess', query({ status: 'valid' })))[0], late.id)
      await storage().transaction((tx) => tx.issuances.revoke('chess', late.id, NOW, null))
      assert.ok(!ids(await storage().issuances.search('chess', query({ status: 'valid' }))).includes(late.id))
      assert.equal(ids(await storage().issuances.search('chess', query({ status: 'revoked' })))[0], late.id)
    })

    it('an e-mail is matched whole and case-insensitively, an external id whole and exactly, across templates, newest first', async () => {
      const { at } = await world()
      const byEmail = await storage().issuances.search('chess', query({ recipient: { by: 'email', value: 'Ada@Example.ORG' } }))
      assert.deepStrictEqual(ids(byEmail), newestFirst(at.validForever, at.revokedSigned))
      assert.deepStrictEqual(await storage().issuances.search('chess', query({ recipient: { by: 'email', value: 'ada@example' } })), [])
      const byId = await storage().issuances.search('chess', query({ recipient: { by: 'externalUserId', value: 'm-1' } }))
      assert.deepStrictEqual(ids(byId), newestFirst(at.validForever, at.revokedSigned))
      assert.deepStrictEqual(await storage().issuances.search('chess', query({ recipient: { by: 'externalUserId', value: 'M-1' } })), [])
      assert.deepStrictEqual(await storage().issuances.search('chess', query({ recipient: { by: 'externalUserId', value: 'm-' } })), [])
      const found = await storage().issuances.search('chess', query({ recipient: { by: 'externalUserId', value: 'm-2' } }))
      assert.deepStrictEqual(found, [{ ...at.validUntilLater }], 'the stored issuance, as a plain object')
    })

    it('a name is matched by its start, ASCII letters in any case, ordered by the name and then newest first', async () => {
      const { at } = await world()
      const ada = await storage().issuances.search('chess', query({ recipient: { by: 'name', value: 'aDA' } }))
      // "ada byron" < "ada lovelace"
      assert.deepStrictEqual(ids(ada), [at.revokedSigned.id, at.validForever.id])
      const a = await storage().issuances.search('chess', query({ recipient: { by: 'name', value: 'A' } }))
      assert.deepStrictEqual(ids(a), [at.revokedSigned.id, at.validForever.id, at.validUntilLater.id])
      const kim = await storage().issuances.search('chess', query({ recipient: { by: 'name', value: '김' } }))
      assert.deepStrictEqual(ids(kim), [at.pending.id, at.pendingPastExpiry.id], '김민수 < 김민지')
      assert.deepStrictEqual(ids(await storage().issuances.search('chess', query({ recipient: { by: 'name', value: '김민지' } }))), [at.pendingPastExpiry.id])
      assert.deepStrictEqual(
        await storage().issuances.search('chess', query({ recipient: { by: 'name', value: 'Lovelace' } })),
        [],
        'the start, not the middle',
      )
      // One name many times: newest first within it.
      const seed = await seedTemplate(storage(), 'chess', { withClub: false })
      const twins = [
        await make(seed, person('ada lovelace', 'x@example.org'), { state: 'signed' }),
        await make(seed, person('ADA LOVELACE', 'y@example.org'), { state: 'pending' }),
      ]
      const all = await storage().issuances.search('chess', query({ recipient: { by: 'name', value: 'ada l' } }))
      assert.deepStrictEqual(ids(all), [twins[1]!.id, twins[0]!.id, at.validForever.id])
    })

    it('template, status and recipient filters combine', async () => {
      const { a, b, at } = await world()
      const of = (overrides: Partial<IssuanceSearch>) => storage().issuances.search('chess', query(overrides)).then(ids)
      assert.deepStrictEqual(await of({ achievementId: a.achievementId, status: 'expired' }), [at.expired.id])
      assert.deepStrictEqual(await of({ achievementId: b.achievementId, status: 'expired' }), [at.expiredJustNow.id])
      assert.deepStrictEqual(await of({ achievementId: b.achievementId, status: 'revoked' }), [at.revokedPending.id])
      assert.deepStrictEqual(await of({ achievementId: b.achievementId, status: 'pending' }), [at.pendingPastExpiry.id])
      assert.deepStrictEqual(await of({ achievementId: a.achievementId, status: 'valid' }), newestFirst(at.validForever, at.validRoundedUp))
      assert.deepStrictEqual(await of({ status: 'revoked', recipient: { by: 'email', value: 'ada@example.org' } }), [at.revokedSigned.id])
      assert.deepStrictEqual(await of({ status: 'valid', recipient: { by: 'externalUserId', value: 'm-1' } }), [at.validForever.id])
      assert.deepStrictEqual(await of({ achievementId: b.achievementId, recipient: { by: 'externalUserId', value: 'm-1' } }), [])
      assert.deepStrictEqual(
        await of({ achievementId: a.achievementId, recipient: { by: 'email', value: 'ADA@example.org' } }),
        newestFirst(at.validForever, at.revokedSigned),
      )
      assert.deepStrictEqual(await of({ status: 'pending', recipient: { by: 'name', value: '김' } }), [at.pending.id, at.pendingPastExpiry.id])
      assert.deepStrictEqual(await of({ achievementId: b.achievementId, status: 'pending', recipient: { by: 'name', value: '김' } }), [at.pendingPastExpiry.id])
      assert.deepStrictEqual(await of({ achievementId: a.achievementId, recipient: { by: 'name', value: 'a' } }), [at.revokedSigned.id, at.validForever.id])
    })

    it('keyset pages cover every match once and in order, for every kind of filter, and rows added meanwhile shift nothing', async () => {
      const { a, b } = await world()
      for (let i = 0; i < 7; i++) {
        await make(i % 2 ? a : b, person(i % 3 ? `Member ${i % 4}` : `회원 ${i}`, `same@example.org`, `same`), {
          state: i % 3 === 2 ? 'pending' : 'signed',
          expiresAt: i % 2 ? NOW - 1000 : null,
          revoked: i === 5,
        })
      }
      const searches: Partial<IssuanceSearch>[] = [
        {},
        { achievementId: a.achievementId },
        { status: 'valid' },
        { status: 'expired' },
        { status: 'pending' },
        { status: 'revoked' },
        { status: 'expired', achievementId: a.achievementId },
        { recipient: { by: 'email', value: 'same@example.org' } },
        { recipient: { by: 'externalUserId', value: 'same' } },
        { recipient: { by: 'name', value: 'm' } },
        { recipient: { by: 'name', value: '' } },
        { recipient: { by: 'name', value: 'member 1' }, status: 'valid' },
      ]
      for (const search of searches) {
        const whole = ids(await storage().issuances.search('chess', query(search)))
        const paged = await allPages('chess', query({ ...search, limit: 2 }))
        assert.deepStrictEqual(paged.ids, whole, JSON.stringify(search))
        assert.equal(new Set(paged.ids).size, paged.ids.length, `no repeats: ${JSON.stringify(search)}`)
      }
      // A page, then new issuances, then the next page: the same rows as without them.
      const first = await storage().issuances.search('chess', query({ limit: 3 }))
      const before = ids(await storage().issuances.search('chess', query({ afterSequence: first.at(-1)!.sequence })))
      await make(a, person('Member 0', 'same@example.org', 'same'), { state: 'signed' })
      assert.deepStrictEqual(ids(await storage().issuances.search('chess', query({ afterSequence: first.at(-1)!.sequence }))), before)
    })

    it("another club's issuances are never found, by any filter, and a name page after another club's issuance is empty", async () => {
      const { at } = await world()
      const inGo = (overrides: Partial<IssuanceSearch>) => storage().issuances.search('go', query(overrides)).then(ids)
      assert.deepStrictEqual(await inGo({}), [at.otherClub.id])
      assert.deepStrictEqual(await inGo({ recipient: { by: 'email', value: 'ada@example.org' } }), [at.otherClub.id])
      assert.deepStrictEqual(await inGo({ recipient: { by: 'name', value: 'ada' } }), [at.otherClub.id])
      assert.deepStrictEqual(await inGo({ status: 'pending' }), [at.otherClub.id])
      assert.deepStrictEqual(await inGo({ status: 'revoked' }), [])
      assert.deepStrictEqual(await storage().issuances.search('nobody', query()), [])
      const chessName = await storage().issuances.search('chess', query({ recipient: { by: 'name', value: 'ada' }, afterSequence: at.otherClub.sequence }))
      assert.deepStrictEqual(chessName, [])
      assert.deepStrictEqual(await storage().issuances.countByStatus('go', NOW), { total: 1, pending: 1, revoked: 0, expired: 0 })
    })
  })
}

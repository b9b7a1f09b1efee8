import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { TemplateView } from '../../../core/achievements/present.ts'
import type { NewAchievementTemplate } from '../../../core/achievements/template.ts'
import { StorageConflict } from '../../../core/errors.ts'
import type { Issuance, NewIssuance } from '../../../core/issuances/issuance.ts'
import { randomIssuanceId } from '../../../core/issuances/issuance-id.ts'
import { sameRecipientEmail } from '../../../core/issuances/recipient-email.ts'
import { webCryptoRandom } from '../../../core/ports/random.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

// Fixtures of the issuing stores, shared by their case files (snapshots, credentials, signing jobs, ...).
// Plain object literals, like harness.ts: `deepStrictEqual` against them also proves plain rows.

export function aNewTemplate(overrides: Partial<NewAchievementTemplate> = {}): NewAchievementTemplate {
  return {
    club: 'chess',
    name: 'Opening Theory',
    nameEn: null,
    type: 'completion',
    description: 'Knows the main openings.',
    descriptionEn: null,
    imprintDescription: 'Knows the main openings.',
    imprintDescriptionEn: null,
    tag: ['openings'],
    requirements: [{ type: 'course_complete', description: 'Finish the course', url: null, order: 0 }],
    program: null,
    coIssuers: [],
    prefix: null,
    courseBeginAt: null,
    courseEndAt: null,
    badgeDesignId: null,
    certificateDesignId: null,
    expiryReminders: [],
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_000,
    ...overrides,
  }
}

export function aView(overrides: Partial<TemplateView> = {}): TemplateView {
  return {
    id: 1,
    name: 'Opening Theory « Ü » 🏆',
    nameEn: null,
    type: 'completion',
    achievementType: 'CertificateOfCompletion',
    description: 'Knows the main openings.',
    descriptionEn: 'Knows the main openings.',
    imprintDescription: 'Knows the main openings.',
    imprintDescriptionEn: null,
    tag: ['openings', 'theory'],
    alignment: [
      { type: ['Alignment'], targetName: 'openings', targetUrl: 'https://badges.example/skills/openings', targetType: 'ext:SkillTag' },
      { type: ['Alignment'], targetName: 'theory', targetUrl: 'https://badges.example/skills/theory', targetType: 'ext:SkillTag' },
    ],
    criteria: {
      narrative: '1. Finish the course',
      requirements: [{ id: 7, type: 'course_complete', description: 'Finish the course', url: null }],
    },
    coIssuers: [{ id: 'did:web:badges.example:clubs:chess', name: 'Chess Club', url: null, role: 'representative', isVerified: false }],
    achievementBadgeDesignId: null,
    achievementCertificateDesignId: null,
    prefix: null,
    image: null,
    issuedCount: 0,
    createdAt: '2030-03-17T17:46:40.000Z',
    updatedAt: '2030-03-17T17:46:40.000Z',
    ...overrides,
  }
}

/** What an issuance references: a template of the club and a snapshot of it. */
export interface IssuingSeed {
  club: string
  achievementId: number
  snapshotId: number
}

/**
 * A new issuance with a fresh random id, as core makes them: random ids also prove that the stores order
 * by the sequence, never by the id.
 */
export function anIssuance(seed: IssuingSeed, overrides: Partial<NewIssuance> = {}): NewIssuance {
  return {
    id: randomIssuanceId(webCryptoRandom),
    club: seed.club,
    achievementId: seed.achievementId,
    snapshotId: seed.snapshotId,
    recipient: { externalUserId: 'member-42', name: 'Ada Lovelace', email: 'Ada@Example.org' },
    evidences: [
      { url: 'https://example.org/game/1', name: 'Game 1', description: 'Won with the Sicilian', isPublic: true },
      { url: null, name: null, description: null, isPublic: false },
    ],
    mode: 'email',
    expiresAt: 1_950_000_000_000,
    createdAt: 1_900_000_000_500,
    revokedAt: null,
    revocationReason: null,
    ...overrides,
  }
}

/**
 * Inserts, through the port, the club (unless `withClub` is false), a template of it and a snapshot of
 * that template: the rows an issuance refers to.
 */
export async function seedTemplate(storage: StoragePort, club = 'chess', { withClub = true } = {}): Promise<IssuingSeed> {
  return storage.transaction(async (tx) => {
    if (withClub) await tx.clubs.insert(aClub({ domain: club }))
    const template = await tx.achievements.insert(aNewTemplate({ club }))
    const snapshotId = await tx.snapshots.insert({ club, achievementId: template.id, view: aView({ id: template.id }), createdAt: 1_900_000_000_400 })
    return { club, achievementId: template.id, snapshotId }
  })
}

/** Inserts `count` issuances of the seed's template in one unit; returns their ids in insertion order. */
export async function seedIssuances(storage: StoragePort, seed: IssuingSeed, count: number): Promise<number[]> {
  return (await seedStoredIssuances(storage, seed, count)).map((issuance) => issuance.id)
}

/** `seedIssuances`, returning the stored issuances (with their sequences). */
export async function seedStoredIssuances(storage: StoragePort, seed: IssuingSeed, count: number): Promise<Issuance[]> {
  return storage.transaction(async (tx) => {
    const stored: Issuance[] = []
    for (let i = 0; i < count; i++) {
      stored.push(
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: `member-${i}`, name: `Member ${i}`, email: `m${i}@example.org` } })),
      )
    }
    return stored
  })
}

const byNumber = (a: number, b: number) => a - b

/** IssuanceStore and AchievementStore.incrementIssuedCount: core/ports/storage.ts. */
export function issuanceCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('issuances', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('an issuance read back by club and id equals the issuance inserted, as a plain object', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed)
      const stored = await storage().transaction((tx) => tx.issuances.insert(issuance))
      assert.deepStrictEqual(stored, { ...issuance, sequence: stored.sequence })
      assert.ok(Number.isSafeInteger(stored.sequence) && stored.sequence > 0)
      const found = await storage().issuances.findById('chess', issuance.id)
      assert.deepStrictEqual(found, stored)
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found?.recipient), Object.prototype)
      assert.equal(Object.getPrototypeOf(found?.evidences[0]), Object.prototype)
    })

    it('an issuance without external id, evidence or expiry, revoked at insert, round-trips with its nulls', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed, {
        recipient: { externalUserId: null, name: 'Grace Hopper', email: 'grace@example.org' },
        evidences: [],
        mode: 'none',
        expiresAt: null,
        revokedAt: 1_900_000_000_900,
        revocationReason: null,
      })
      const stored = await storage().transaction((tx) => tx.issuances.insert(issuance))
      assert.deepStrictEqual(await storage().issuances.findById('chess', issuance.id), { ...issuance, sequence: stored.sequence })
    })

    it('a unit of work reads the issuance it inserted', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed)
      const { stored, seen } = await storage().transaction(async (tx) => {
        const stored = await tx.issuances.insert(issuance)
        return { stored, seen: await tx.issuances.findById('chess', issuance.id) }
      })
      assert.deepStrictEqual(seen, stored)
    })

    it('insert hands out distinct sequences that increase within a unit and across units', async () => {
      const seed = await seedTemplate(storage())
      const first = await seedStoredIssuances(storage(), seed, 3)
      const second = await seedStoredIssuances(storage(), seed, 2)
      const sequences = [...first, ...second].map((issuance) => issuance.sequence)
      for (let i = 1; i < sequences.length; i++) assert.ok(sequences[i]! > sequences[i - 1]!, `sequences ${sequences.join(', ')}`)
    })

    it("insert keeps the caller's id, up to 2^53 - 1, and reads it back exactly", async () => {
      const seed = await seedTemplate(storage())
      for (const id of [Number.MAX_SAFE_INTEGER, 1, 2 ** 52 + 1]) {
        await storage().transaction((tx) =>
          tx.issuances.insert(anIssuance(seed, { id, recipient: { externalUserId: `u${id}`, name: 'A', email: 'a@example.org' } })),
        )
        assert.equal((await storage().issuances.findById('chess', id))?.id, id)
        assert.equal((await storage().issuances.findByIdAcrossClubs(id))?.id, id)
      }
    })

    it('an id that exists is StorageConflict, also from another club, and the unit goes on without the row', async () => {
      const chess = await seedTemplate(storage())
      const go = await seedTemplate(storage(), 'go')
      const taken = await storage().transaction((tx) => tx.issuances.insert(anIssuance(chess)))
      const { retried, conflict } = await storage().transaction(async (tx) => {
        let conflict: unknown = null
        try {
          await tx.issuances.insert(anIssuance(go, { id: taken.id }))
        } catch (error) {
          conflict = error
        }
        // The unit survives the refused insert, as core's retry with a fresh id relies on.
        return { retried: await tx.issuances.insert(anIssuance(go)), conflict }
      })
      assert.ok(conflict instanceof StorageConflict, String(conflict))
      assert.deepStrictEqual(await storage().issuances.findById('chess', taken.id), taken)
      assert.equal(await storage().issuances.findById('go', taken.id), null)
      assert.deepStrictEqual(await storage().issuances.findById('go', retried.id), retried)
      assert.ok(retried.sequence > taken.sequence)
    })

    it('concurrent units inserting one id: exactly one succeeds, the others get StorageConflict', async () => {
      const seed = await seedTemplate(storage())
      const id = randomIssuanceId(webCryptoRandom)
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          storage().transaction((tx) =>
            tx.issuances.insert(anIssuance(seed, { id, recipient: { externalUserId: `u${i}`, name: 'A', email: 'a@example.org' } })),
          ),
        ),
      )
      assert.equal(outcomes.filter((outcome) => outcome.status === 'fulfilled').length, 1)
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof StorageConflict, String(outcome.reason))
      }
      assert.equal((await storage().issuances.list('chess', { limit: 100, beforeSequence: null })).length, 1)
    })

    it('concurrent units get distinct sequences, and list orders by sequence whatever the ids', async () => {
      const seed = await seedTemplate(storage())
      const stored = await Promise.all(Array.from({ length: 20 }, () => storage().transaction((tx) => tx.issuances.insert(anIssuance(seed)))))
      assert.equal(new Set(stored.map((issuance) => issuance.sequence)).size, 20)
      assert.equal(new Set(stored.map((issuance) => issuance.id)).size, 20)
      const listed = await storage().issuances.list('chess', { limit: 100, beforeSequence: null })
      assert.deepStrictEqual(
        listed.map((issuance) => issuance.id),
        [...stored].sort((a, b) => b.sequence - a.sequence).map((issuance) => issuance.id),
      )
    })

    it("finding an absent issuance, or another club's, returns null", async () => {
      assert.equal(await storage().issuances.findById('chess', 1), null)
      const seed = await seedTemplate(storage())
      const [id] = await seedIssuances(storage(), seed, 1)
      await storage().transaction((tx) => tx.clubs.insert(aClub({ domain: 'go' })))
      assert.equal(await storage().issuances.findById('go', id!), null)
      assert.equal(await storage().issuances.findById('chess', id! + 1000), null)
    })

    it('changing an inserted or returned issuance changes nothing stored', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed)
      const id = issuance.id
      const stored = await storage().transaction((tx) => tx.issuances.insert(issuance))
      const expected = { ...anIssuance(seed), id, sequence: stored.sequence }
      issuance.recipient.name = 'mutated after insert'
      issuance.evidences[0]!.name = 'mutated after insert'
      stored.recipient.name = 'mutated after insert'
      const found = await storage().issuances.findById('chess', id)
      assert.ok(found)
      assert.deepStrictEqual(found, expected)
      found.recipient.email = 'mutated@after.read'
      found.evidences.pop()
      assert.deepStrictEqual(await storage().issuances.findById('chess', id), expected)
    })

    it('findHeld matches by externalUserId when the recipient has one, whatever the e-mail', async () => {
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => [
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'one@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'other@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u2', name: 'B', email: 'one@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'C', email: 'one@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'U1', name: 'D', email: 'one@example.org' } }))).id,
      ])
      const [held] = await storage().issuances.findHeld('chess', seed.achievementId, [{ externalUserId: 'u1', email: 'one@example.org' }])
      assert.deepStrictEqual(held!.map((issuance) => issuance.id).sort(byNumber), [ids[0]!, ids[1]!].sort(byNumber))
      const first = held!.find((issuance) => issuance.id === ids[0])
      assert.deepStrictEqual(first, {
        ...anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'one@example.org' } }),
        id: ids[0],
        sequence: first?.sequence,
      })
    })

    it('findHeld without an externalUserId matches the e-mail case-insensitively, whatever the stored external id', async () => {
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => [
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'A', email: 'Ada@Example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u9', name: 'A', email: 'ADA@EXAMPLE.ORG' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'B', email: 'bob@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'A', email: 'ada@example.org.evil' } }))).id,
      ])
      const [held] = await storage().issuances.findHeld('chess', seed.achievementId, [{ externalUserId: null, email: 'ada@example.ORG' }])
      assert.deepStrictEqual(held!.map((issuance) => issuance.id).sort(byNumber), [ids[0]!, ids[1]!].sort(byNumber))
    })

    it('findHeld and search fold the ASCII letters of an e-mail and nothing else (sameRecipientEmail), whatever the collation', async () => {
      const seed = await seedTemplate(storage())
      const [kim, umlaut] = await storage().transaction(async (tx) => [
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'Kim', email: 'Kim@Example.COM' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'Ä', email: 'ÄBC@example.com' } }))).id,
      ])
      const held = async (email: string) =>
        (await storage().issuances.findHeld('chess', seed.achievementId, [{ externalUserId: null, email }]))[0]!.map((issuance) => issuance.id)
      const found = async (email: string) =>
        (
          await storage().issuances.search('chess', {
            limit: 10,
            afterSequence: null,
            achievementId: null,
            status: null,
            now: 0,
            recipient: { by: 'email', value: email },
          })
        ).map((issuance) => issuance.id)
      for (const lookup of [held, found]) {
        assert.deepStrictEqual(await lookup('kim@example.com'), [kim])
        assert.deepStrictEqual(await lookup('KIM@EXAMPLE.COM'), [kim])
        assert.deepStrictEqual(await lookup('ÄBC@EXAMPLE.COM'), [umlaut], 'ASCII letters fold beside a non-ASCII one')
        assert.deepStrictEqual(await lookup('äbc@example.com'), [], 'Ä and ä are two characters: no Unicode fold')
      }
      for (const [a, b, same] of [
        ['Kim@Example.COM', 'kim@example.com', true],
        ['ÄBC@example.com', 'Äbc@EXAMPLE.com', true],
        ['ÄBC@example.com', 'äbc@example.com', false],
      ] as const) {
        assert.equal(sameRecipientEmail(a, b), same, `core's rule agrees: ${a} ${b}`)
      }
    })

    it("findHeld returns only the club's issuances of that template, and [] when none is held", async () => {
      const chess = await seedTemplate(storage())
      const otherTemplate = await seedTemplate(storage(), 'chess', { withClub: false })
      const go = await seedTemplate(storage(), 'go')
      const recipient = { externalUserId: 'u1', name: 'A', email: 'a@example.org' }
      const [mine] = await storage().transaction(async (tx) => [
        (await tx.issuances.insert(anIssuance(chess, { recipient }))).id,
        (await tx.issuances.insert(anIssuance(otherTemplate, { recipient }))).id,
        (await tx.issuances.insert(anIssuance(go, { recipient }))).id,
      ])
      const held = await storage().issuances.findHeld('chess', chess.achievementId, [
        recipient,
        { externalUserId: 'nobody', email: 'a@example.org' },
        { externalUserId: null, email: 'nobody@example.org' },
      ])
      assert.deepStrictEqual(
        held.map((issuances) => issuances.map((issuance) => issuance.id)),
        [[mine], [], []],
      )
      assert.deepStrictEqual(await storage().issuances.findHeld('go', chess.achievementId, [recipient]), [[]])
      assert.deepStrictEqual(await storage().issuances.findHeld('chess', chess.achievementId, []), [])
    })

    it('findHeld answers many recipients in their order, each by its own kind of match, a recipient asked twice twice', async () => {
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => [
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'ada@example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'B', email: 'Bob@Example.org' } }))).id,
        (await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u3', name: 'C', email: 'bob@example.org' } }))).id,
      ])
      const held = await storage().issuances.findHeld('chess', seed.achievementId, [
        { externalUserId: null, email: 'BOB@example.org' },
        { externalUserId: 'u1', email: 'bob@example.org' },
        { externalUserId: 'u2', email: 'ada@example.org' },
        { externalUserId: 'u1', email: 'x@example.org' },
        { externalUserId: null, email: 'ada@example.org' },
      ])
      assert.deepStrictEqual(
        held.map((issuances) => issuances.map((issuance) => issuance.id).sort(byNumber)),
        [[ids[1]!, ids[2]!].sort(byNumber), [ids[0]!], [], [ids[0]!], [ids[0]!]],
      )
    })

    it("list returns the club's issuances highest sequence (newest) first, at most limit, and [] for a club without any", async () => {
      const chess = await seedTemplate(storage())
      const go = await seedTemplate(storage(), 'go')
      const stored = await seedStoredIssuances(storage(), chess, 5)
      const ids = stored.map((issuance) => issuance.id)
      await seedIssuances(storage(), go, 2)
      const listed = await storage().issuances.list('chess', { limit: 3, beforeSequence: null })
      assert.deepStrictEqual(
        listed.map((issuance) => issuance.id),
        ids.slice(2).reverse(),
      )
      assert.deepStrictEqual(listed[0], stored[4])
      assert.equal((await storage().issuances.list('chess', { limit: 100, beforeSequence: null })).length, 5)
      assert.deepStrictEqual(await storage().issuances.list('chess', { limit: 10, beforeSequence: stored[0]!.sequence }), [])
      await storage().transaction((tx) => tx.clubs.insert(aClub({ domain: 'empty' })))
      assert.deepStrictEqual(await storage().issuances.list('empty', { limit: 10, beforeSequence: null }), [])
    })

    it('keyset pages by beforeSequence cover every issuance once, and rows added meanwhile shift nothing', async () => {
      const seed = await seedTemplate(storage())
      const ids = await seedIssuances(storage(), seed, 7)
      const seen: number[] = []
      let beforeSequence: number | null = null
      for (let page = 0; page < 10; page++) {
        const rows = await storage().issuances.list('chess', { limit: 3, beforeSequence })
        if (rows.length === 0) break
        seen.push(...rows.map((issuance) => issuance.id))
        beforeSequence = rows.at(-1)!.sequence
        if (page === 0) await seedIssuances(storage(), seed, 2) // newer rows land before the cursor
      }
      assert.deepStrictEqual(seen, [...ids].reverse())
    })

    it("list with achievementId returns only that template's issuances, keyset-paged; null means all", async () => {
      const a = await seedTemplate(storage())
      const b = await seedTemplate(storage(), 'chess', { withClub: false })
      const stored = await storage().transaction(async (tx) => {
        const stored: Issuance[] = []
        for (const seed of [a, b, a, b, a]) stored.push(await tx.issuances.insert(anIssuance(seed)))
        return stored
      })
      const ids = stored.map((issuance) => issuance.id)
      const ofA = await storage().issuances.list('chess', { limit: 10, beforeSequence: null, achievementId: a.achievementId })
      assert.deepStrictEqual(
        ofA.map((issuance) => issuance.id),
        [ids[4], ids[2], ids[0]],
      )
      const page = await storage().issuances.list('chess', { limit: 1, beforeSequence: stored[4]!.sequence, achievementId: a.achievementId })
      assert.deepStrictEqual(
        page.map((issuance) => issuance.id),
        [ids[2]],
      )
      const all = await storage().issuances.list('chess', { limit: 10, beforeSequence: null, achievementId: null })
      assert.deepStrictEqual(
        all.map((issuance) => issuance.id),
        [...ids].reverse(),
      )
      assert.deepStrictEqual(
        await storage().issuances.list('chess', { limit: 10, beforeSequence: null, achievementId: a.achievementId + b.achievementId + 1 }),
        [],
      )
    })

    it('revoke sets revokedAt and reason and returns true; a second revoke returns false and keeps the first', async () => {
      const seed = await seedTemplate(storage())
      const [id] = await seedIssuances(storage(), seed, 1)
      const before = await storage().issuances.findById('chess', id!)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('chess', id!, 1_900_000_001_000, 'left the club')), true)
      const revoked = { ...before!, revokedAt: 1_900_000_001_000, revocationReason: 'left the club' }
      assert.deepStrictEqual(await storage().issuances.findById('chess', id!), revoked)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('chess', id!, 1_900_000_002_000, 'again')), false)
      assert.deepStrictEqual(await storage().issuances.findById('chess', id!), revoked)
    })

    it('revoke with a null reason stores a null reason', async () => {
      const seed = await seedTemplate(storage())
      const [id] = await seedIssuances(storage(), seed, 1)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('chess', id!, 5, null)), true)
      const found = await storage().issuances.findById('chess', id!)
      assert.equal(found?.revokedAt, 5)
      assert.equal(found?.revocationReason, null)
    })

    it("revoke of an absent issuance, or another club's, returns false and changes nothing", async () => {
      const seed = await seedTemplate(storage())
      await storage().transaction((tx) => tx.clubs.insert(aClub({ domain: 'go' })))
      const [id] = await seedIssuances(storage(), seed, 1)
      const before = await storage().issuances.findById('chess', id!)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('go', id!, 5, 'x')), false)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('chess', id! + 1000, 5, 'x')), false)
      assert.deepStrictEqual(await storage().issuances.findById('chess', id!), before)
    })

    it('a unit that inserts an issuance, an event and a signing job then throws leaves none of them', async () => {
      const seed = await seedTemplate(storage())
      const failure = new Error('roll back')
      let issuanceId = 0
      await assert.rejects(
        storage().transaction(async (tx) => {
          issuanceId = (await tx.issuances.insert(anIssuance(seed))).id
          await tx.events.append({ club: 'chess', type: 'issuance.issued', subject: { type: 'issuance', id: String(issuanceId) }, occurredAt: 1 })
          await tx.signingJobs.enqueueMany([{ issuanceId, club: 'chess' }])
          throw failure
        }),
        (error) => error === failure,
      )
      assert.ok(issuanceId > 0)
      assert.equal(await storage().issuances.findById('chess', issuanceId), null)
      assert.deepStrictEqual(await storage().issuances.list('chess', { limit: 10, beforeSequence: null }), [])
      assert.deepStrictEqual(await storage().events.list('chess', { limit: 10, beforeId: null }), [])
      assert.equal(await storage().signingJobs.count(), 0)
      assert.deepStrictEqual(await storage().transaction((tx) => tx.signingJobs.claim(10, 1000, 10)), [])
    })

    it('a rolled-back revoke leaves the issuance unrevoked', async () => {
      const seed = await seedTemplate(storage())
      const [id] = await seedIssuances(storage(), seed, 1)
      const before = await storage().issuances.findById('chess', id!)
      await assert.rejects(
        storage().transaction(async (tx) => {
          assert.equal(await tx.issuances.revoke('chess', id!, 5, 'x'), true)
          throw new Error('roll back')
        }),
        /roll back/,
      )
      assert.deepStrictEqual(await storage().issuances.findById('chess', id!), before)
      assert.equal(await storage().transaction((tx) => tx.issuances.revoke('chess', id!, 6, 'y')), true)
    })

    it("incrementIssuedCount adds to the template's issuedCount, and a rolled-back increment is undone", async () => {
      const seed = await seedTemplate(storage())
      const issuedCount = async () => (await storage().achievements.findById('chess', seed.achievementId))?.issuedCount
      assert.equal(await issuedCount(), 0)
      await storage().transaction((tx) => tx.achievements.incrementIssuedCount(seed.achievementId, 1))
      await storage().transaction((tx) => tx.achievements.incrementIssuedCount(seed.achievementId, 3))
      assert.equal(await issuedCount(), 4)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.achievements.incrementIssuedCount(seed.achievementId, 10)
          throw new Error('roll back')
        }),
      )
      assert.equal(await issuedCount(), 4)
    })

    it('incrementIssuedCount changes no other field of the template and no other template', async () => {
      const a = await seedTemplate(storage())
      const b = await seedTemplate(storage(), 'chess', { withClub: false })
      const before = await storage().achievements.findById('chess', a.achievementId)
      const other = await storage().achievements.findById('chess', b.achievementId)
      await storage().transaction((tx) => tx.achievements.incrementIssuedCount(a.achievementId, 2))
      assert.deepStrictEqual(await storage().achievements.findById('chess', a.achievementId), { ...before!, issuedCount: 2 })
      assert.deepStrictEqual(await storage().achievements.findById('chess', b.achievementId), other)
    })

    it('concurrent increments in units of work add up without a lost update', async () => {
      const seed = await seedTemplate(storage())
      await Promise.all(Array.from({ length: 20 }, () => storage().transaction((tx) => tx.achievements.incrementIssuedCount(seed.achievementId, 1))))
      assert.equal((await storage().achievements.findById('chess', seed.achievementId))?.issuedCount, 20)
    })
  })
}

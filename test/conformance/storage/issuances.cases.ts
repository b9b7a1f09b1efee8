import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { TemplateView } from '../../../core/achievements/present.ts'
import type { NewAchievementTemplate } from '../../../core/achievements/template.ts'
import type { NewIssuance } from '../../../core/issuances/issuance.ts'
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

export function anIssuance(seed: IssuingSeed, overrides: Partial<NewIssuance> = {}): NewIssuance {
  return {
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
  return storage.transaction(async (tx) => {
    const ids: number[] = []
    for (let i = 0; i < count; i++) {
      ids.push(await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: `member-${i}`, name: `Member ${i}`, email: `m${i}@example.org` } })))
    }
    return ids
  })
}

const byId = <T extends { id: number }>(a: T, b: T) => a.id - b.id

/** IssuanceStore and AchievementStore.incrementIssuedCount: core/ports/storage.ts. */
export function issuanceCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('issuances', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('an issuance read back by club and id equals the issuance inserted, as a plain object', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed)
      const id = await storage().transaction((tx) => tx.issuances.insert(issuance))
      const found = await storage().issuances.findById('chess', id)
      assert.deepStrictEqual(found, { ...issuance, id })
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
      const id = await storage().transaction((tx) => tx.issuances.insert(issuance))
      assert.deepStrictEqual(await storage().issuances.findById('chess', id), { ...issuance, id })
    })

    it('a unit of work reads the issuance it inserted', async () => {
      const seed = await seedTemplate(storage())
      const issuance = anIssuance(seed)
      const { id, seen } = await storage().transaction(async (tx) => {
        const id = await tx.issuances.insert(issuance)
        return { id, seen: await tx.issuances.findById('chess', id) }
      })
      assert.deepStrictEqual(seen, { ...issuance, id })
    })

    it('insert hands out distinct ids that increase within a unit and across units', async () => {
      const seed = await seedTemplate(storage())
      const first = await seedIssuances(storage(), seed, 3)
      const second = await seedIssuances(storage(), seed, 2)
      const ids = [...first, ...second]
      for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `ids ${ids.join(', ')}`)
    })

    it('finding an absent issuance, or another club\'s, returns null', async () => {
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
      const id = await storage().transaction((tx) => tx.issuances.insert(issuance))
      issuance.recipient.name = 'mutated after insert'
      issuance.evidences[0]!.name = 'mutated after insert'
      const found = await storage().issuances.findById('chess', id)
      assert.ok(found)
      assert.deepStrictEqual(found, { ...anIssuance(seed), id })
      found.recipient.email = 'mutated@after.read'
      found.evidences.pop()
      assert.deepStrictEqual(await storage().issuances.findById('chess', id), { ...anIssuance(seed), id })
    })

    it('findHeld matches by externalUserId when the recipient has one, whatever the e-mail', async () => {
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => [
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'one@example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'other@example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u2', name: 'B', email: 'one@example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'C', email: 'one@example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'U1', name: 'D', email: 'one@example.org' } })),
      ])
      const held = await storage().issuances.findHeld('chess', seed.achievementId, { externalUserId: 'u1', email: 'one@example.org' })
      assert.deepStrictEqual(held.map((issuance) => issuance.id).sort((a, b) => a - b), [ids[0], ids[1]])
      assert.deepStrictEqual(held.sort(byId)[0], { ...anIssuance(seed, { recipient: { externalUserId: 'u1', name: 'A', email: 'one@example.org' } }), id: ids[0] })
    })

    it('findHeld without an externalUserId matches the e-mail case-insensitively, whatever the stored external id', async () => {
      const seed = await seedTemplate(storage())
      const ids = await storage().transaction(async (tx) => [
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'A', email: 'Ada@Example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: 'u9', name: 'A', email: 'ADA@EXAMPLE.ORG' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'B', email: 'bob@example.org' } })),
        await tx.issuances.insert(anIssuance(seed, { recipient: { externalUserId: null, name: 'A', email: 'ada@example.org.evil' } })),
      ])
      const held = await storage().issuances.findHeld('chess', seed.achievementId, { externalUserId: null, email: 'ada@example.ORG' })
      assert.deepStrictEqual(held.map((issuance) => issuance.id).sort((a, b) => a - b), [ids[0], ids[1]])
    })

    it('findHeld returns only the club\'s issuances of that template, and [] when none is held', async () => {
      const chess = await seedTemplate(storage())
      const otherTemplate = await seedTemplate(storage(), 'chess', { withClub: false })
      const go = await seedTemplate(storage(), 'go')
      const recipient = { externalUserId: 'u1', name: 'A', email: 'a@example.org' }
      const [mine] = await storage().transaction(async (tx) => [
        await tx.issuances.insert(anIssuance(chess, { recipient })),
        await tx.issuances.insert(anIssuance(otherTemplate, { recipient })),
        await tx.issuances.insert(anIssuance(go, { recipient })),
      ])
      const held = await storage().issuances.findHeld('chess', chess.achievementId, recipient)
      assert.deepStrictEqual(held.map((issuance) => issuance.id), [mine])
      assert.deepStrictEqual(await storage().issuances.findHeld('chess', chess.achievementId, { externalUserId: 'nobody', email: 'a@example.org' }), [])
      assert.deepStrictEqual(await storage().issuances.findHeld('chess', chess.achievementId, { externalUserId: null, email: 'nobody@example.org' }), [])
      assert.deepStrictEqual(await storage().issuances.findHeld('go', chess.achievementId, recipient), [])
    })

    it('list returns the club\'s issuances highest id first, at most limit, and [] for a club without any', async () => {
      const chess = await seedTemplate(storage())
      const go = await seedTemplate(storage(), 'go')
      const ids = await seedIssuances(storage(), chess, 5)
      await seedIssuances(storage(), go, 2)
      const listed = await storage().issuances.list('chess', { limit: 3, beforeId: null })
      assert.deepStrictEqual(listed.map((issuance) => issuance.id), ids.slice(2).reverse())
      assert.deepStrictEqual(listed[0], { ...anIssuance(chess, { recipient: { externalUserId: 'member-4', name: 'Member 4', email: 'm4@example.org' } }), id: ids[4] })
      assert.equal((await storage().issuances.list('chess', { limit: 100, beforeId: null })).length, 5)
      assert.deepStrictEqual(await storage().issuances.list('chess', { limit: 10, beforeId: ids[0]! }), [])
      await storage().transaction((tx) => tx.clubs.insert(aClub({ domain: 'empty' })))
      assert.deepStrictEqual(await storage().issuances.list('empty', { limit: 10, beforeId: null }), [])
    })

    it('keyset pages by beforeId cover every issuance once, and rows added meanwhile shift nothing', async () => {
      const seed = await seedTemplate(storage())
      const ids = await seedIssuances(storage(), seed, 7)
      const seen: number[] = []
      let beforeId: number | null = null
      for (let page = 0; page < 10; page++) {
        const rows = await storage().issuances.list('chess', { limit: 3, beforeId })
        if (rows.length === 0) break
        seen.push(...rows.map((issuance) => issuance.id))
        beforeId = rows.at(-1)!.id
        if (page === 0) await seedIssuances(storage(), seed, 2) // newer rows land before the cursor
      }
      assert.deepStrictEqual(seen, [...ids].reverse())
    })

    it('list with achievementId returns only that template\'s issuances, keyset-paged; null means all', async () => {
      const a = await seedTemplate(storage())
      const b = await seedTemplate(storage(), 'chess', { withClub: false })
      const ids = await storage().transaction(async (tx) => {
        const ids: number[] = []
        for (const seed of [a, b, a, b, a]) ids.push(await tx.issuances.insert(anIssuance(seed)))
        return ids
      })
      const ofA = await storage().issuances.list('chess', { limit: 10, beforeId: null, achievementId: a.achievementId })
      assert.deepStrictEqual(ofA.map((issuance) => issuance.id), [ids[4], ids[2], ids[0]])
      const page = await storage().issuances.list('chess', { limit: 1, beforeId: ids[4]!, achievementId: a.achievementId })
      assert.deepStrictEqual(page.map((issuance) => issuance.id), [ids[2]])
      const all = await storage().issuances.list('chess', { limit: 10, beforeId: null, achievementId: null })
      assert.deepStrictEqual(all.map((issuance) => issuance.id), [...ids].reverse())
      assert.deepStrictEqual(await storage().issuances.list('chess', { limit: 10, beforeId: null, achievementId: a.achievementId + b.achievementId + 1 }), [])
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

    it('revoke of an absent issuance, or another club\'s, returns false and changes nothing', async () => {
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
          issuanceId = await tx.issuances.insert(anIssuance(seed))
          await tx.events.append({ club: 'chess', type: 'issuance.issued', subject: { type: 'issuance', id: String(issuanceId) }, occurredAt: 1 })
          await tx.signingJobs.enqueue({ issuanceId, club: 'chess' })
          throw failure
        }),
        (error) => error === failure,
      )
      assert.ok(issuanceId > 0)
      assert.equal(await storage().issuances.findById('chess', issuanceId), null)
      assert.deepStrictEqual(await storage().issuances.list('chess', { limit: 10, beforeId: null }), [])
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

    it('incrementIssuedCount adds to the template\'s issuedCount, and a rolled-back increment is undone', async () => {
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

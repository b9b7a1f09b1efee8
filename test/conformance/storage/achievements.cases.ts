import assert from 'node:assert/strict'
import { describe } from 'node:test'
import type { AchievementTemplate, NewAchievementTemplate, NewRequirement, Requirement } from '../../../core/achievements/template.ts'
import type { StoragePort } from '../../../core/ports/storage.ts'
import { aClub, caseRunner, freshStore, type CaseOptions, type OpenStorage } from './harness.ts'

// A plain object literal, like the fixtures of harness.ts: `deepStrictEqual` against what comes back
// also proves that the adapter returns plain objects.
function aNewTemplate(overrides: Partial<NewAchievementTemplate> = {}): NewAchievementTemplate {
  return {
    club: 'chess',
    name: 'Endgame « Theory » 🏆',
    nameEn: 'Endgame theory',
    type: 'award',
    description: 'Knows the basic endgames.',
    descriptionEn: 'Knows the basic endgames.',
    imprintDescription: 'Engraved: basic endgames.',
    imprintDescriptionEn: null,
    tag: ['endgames', '체스'],
    requirements: [
      { type: 'course_complete', description: 'Finish the course', url: null, order: 0 },
      { type: null, description: null, url: 'https://chess.example/puzzles', order: 1 },
    ],
    program: { name: 'Spring league', url: 'https://chess.example/league', type: 'league', isPublic: true },
    coIssuers: [{ name: 'Go Club', url: 'https://go.example', isVerified: false }],
    prefix: 'CHESS',
    courseBeginAt: '2030-01-01T00:00:00.000Z',
    courseEndAt: null,
    badgeDesignId: 3,
    certificateDesignId: null,
    expiryReminders: ['P30D', 'PT12H'],
    createdAt: 1_900_000_000_000,
    updatedAt: 1_900_000_000_500,
    ...overrides,
  }
}

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id

/** Requirements as stored, in id order (findById returns them in any order). */
const sortedRequirements = (template: AchievementTemplate | null): Requirement[] => [...(template?.requirements ?? [])].sort(byId)

/** What `insert` must have stored for `input` under `id` and these requirement ids. */
function stored(input: NewAchievementTemplate, id: number, requirementIds: number[]): AchievementTemplate {
  return {
    ...input,
    id,
    issuedCount: 0,
    requirements: input.requirements.map((requirement, index) => ({ ...requirement, id: requirementIds[index]! })),
  }
}

async function withClubs(storage: StoragePort, ...domains: string[]): Promise<void> {
  await storage.transaction(async (tx) => {
    for (const domain of domains) await tx.clubs.insert(aClub({ domain, name: `${domain} club` }))
  })
}

async function insert(storage: StoragePort, template: NewAchievementTemplate = aNewTemplate()): Promise<AchievementTemplate> {
  return storage.transaction((tx) => tx.achievements.insert(template))
}

/** AchievementStore: core/ports/storage.ts. */
export function achievementCases(open: OpenStorage, options: CaseOptions = {}): void {
  describe('achievements', () => {
    const storage = freshStore(open)
    const it = caseRunner(options)

    it('insert returns the template with fresh ids, and findById reads back the same plain object', async () => {
      await withClubs(storage(), 'chess')
      const input = aNewTemplate()
      const inserted = await insert(storage(), input)
      assert.ok(Number.isSafeInteger(inserted.id) && inserted.id > 0)
      const requirementIds = inserted.requirements.map((requirement) => requirement.id)
      assert.equal(new Set(requirementIds).size, 2)
      for (const id of requirementIds) assert.ok(Number.isSafeInteger(id) && id > 0)
      assert.deepStrictEqual(
        { ...inserted, requirements: sortedRequirements(inserted) },
        stored(
          input,
          inserted.id,
          requirementIds.sort((a, b) => a - b),
        ),
      )

      const found = await storage().achievements.findById('chess', inserted.id)
      assert.ok(found)
      assert.deepStrictEqual({ ...found, requirements: sortedRequirements(found) }, { ...inserted, requirements: sortedRequirements(inserted) })
      assert.equal(Object.getPrototypeOf(found), Object.prototype)
      assert.equal(Object.getPrototypeOf(found.program), Object.prototype)
      assert.equal(Object.getPrototypeOf(found.requirements[0]), Object.prototype)
    })

    it('requirements keep the order key they were inserted with', async () => {
      await withClubs(storage(), 'chess')
      const requirements: NewRequirement[] = [
        { type: 'score', description: 'c', url: null, order: 7 },
        { type: null, description: 'a', url: null, order: 0 },
        { type: null, description: 'b', url: null, order: 7 },
      ]
      const inserted = await insert(storage(), aNewTemplate({ requirements }))
      const found = await storage().achievements.findById('chess', inserted.id)
      assert.deepStrictEqual(
        sortedRequirements(found).map(({ id: _, ...requirement }) => requirement),
        requirements,
      )
    })

    it('a template without requirements, program or tags reads back with [] and null', async () => {
      await withClubs(storage(), 'chess')
      const input = aNewTemplate({ requirements: [], program: null, tag: [], coIssuers: [], nameEn: null, prefix: null, badgeDesignId: null })
      const inserted = await insert(storage(), input)
      assert.deepStrictEqual(await storage().achievements.findById('chess', inserted.id), stored(input, inserted.id, []))
    })

    it('template and requirement ids increase with every insert', async () => {
      await withClubs(storage(), 'chess', 'go')
      const first = await insert(storage())
      const second = await insert(storage(), aNewTemplate({ club: 'go' }))
      const third = await insert(storage())
      assert.ok(first.id < second.id && second.id < third.id)
      const firstIds = first.requirements.map((r) => r.id)
      const thirdIds = third.requirements.map((r) => r.id)
      assert.ok(Math.min(...thirdIds) > Math.max(...second.requirements.map((r) => r.id), ...firstIds))
    })

    it("findById of another club's template, or of an absent id, returns null", async () => {
      await withClubs(storage(), 'chess', 'go')
      const theirs = await insert(storage(), aNewTemplate({ club: 'go' }))
      assert.equal(await storage().achievements.findById('chess', theirs.id), null)
      assert.equal(await storage().achievements.findById('chess', theirs.id + 1), null)
      assert.equal(await storage().achievements.findById('absent', theirs.id), null)
      assert.equal((await storage().achievements.findById('go', theirs.id))?.id, theirs.id)
    })

    it('update writes the fields and keeps id, club, requirements, issuedCount and createdAt', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      const changed: AchievementTemplate = {
        ...inserted,
        name: 'Renamed',
        nameEn: null,
        type: 'degree',
        description: 'New description',
        descriptionEn: null,
        imprintDescription: 'New engraving',
        imprintDescriptionEn: 'New engraving',
        tag: ['a', 'b', 'c'],
        program: { name: null, url: null, type: null, isPublic: false },
        coIssuers: [],
        prefix: null,
        courseBeginAt: null,
        courseEndAt: '2031-01-01T00:00:00.000Z',
        badgeDesignId: null,
        certificateDesignId: 9,
        updatedAt: 1_900_000_009_000,
        // Not written by update:
        requirements: [],
        issuedCount: 99,
        createdAt: 1,
      }
      assert.equal(await storage().transaction((tx) => tx.achievements.update(changed)), true)
      const found = await storage().achievements.findById('chess', inserted.id)
      assert.deepStrictEqual(
        { ...found, requirements: sortedRequirements(found) },
        { ...changed, requirements: sortedRequirements(inserted), issuedCount: 0, createdAt: inserted.createdAt },
      )
    })

    it('update can remove the program (null)', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      assert.equal(await storage().transaction((tx) => tx.achievements.update({ ...inserted, program: null })), true)
      assert.equal((await storage().achievements.findById('chess', inserted.id))?.program, null)
    })

    it('update returns false when the template is absent or of another club, and changes nothing', async () => {
      await withClubs(storage(), 'chess', 'go')
      const theirs = await insert(storage(), aNewTemplate({ club: 'go' }))
      const absent = await storage().transaction((tx) => tx.achievements.update({ ...theirs, id: theirs.id + 1, name: 'Ghost' }))
      assert.equal(absent, false)
      const foreign = await storage().transaction((tx) => tx.achievements.update({ ...theirs, club: 'chess', name: 'Hijacked' }))
      assert.equal(foreign, false)
      assert.equal((await storage().achievements.findById('go', theirs.id))?.name, theirs.name)
      assert.equal(await storage().achievements.findById('go', theirs.id + 1), null)
      assert.deepStrictEqual(await storage().achievements.list('chess', { limit: 10, beforeId: null }), [])
    })

    it('replaceRequirements gives fresh, increasing ids, higher than any before, and removes the old requirements', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      const other = await insert(storage(), aNewTemplate({ name: 'Other' }))
      const oldIds = [...inserted.requirements, ...other.requirements].map((requirement) => requirement.id)
      const next: NewRequirement[] = [
        { type: 'score', description: 'Reach 1500', url: null, order: 0 },
        { type: null, description: null, url: 'https://chess.example/a', order: 1 },
        { type: 'other', description: 'Third', url: 'https://chess.example/b', order: 2 },
      ]
      const replaced = await storage().transaction((tx) => tx.achievements.replaceRequirements(inserted.id, next))
      assert.deepStrictEqual(
        replaced.map(({ id: _, ...requirement }) => requirement),
        next,
      )
      const newIds = replaced.map((requirement) => requirement.id)
      assert.deepStrictEqual(
        newIds,
        [...newIds].sort((a, b) => a - b),
      )
      assert.equal(new Set(newIds).size, 3)
      for (const id of newIds) assert.ok(id > Math.max(...oldIds), `${id} is above every earlier id`)

      const found = await storage().achievements.findById('chess', inserted.id)
      assert.deepStrictEqual(sortedRequirements(found), [...replaced].sort(byId))
      // The other template's requirements are untouched.
      assert.deepStrictEqual(sortedRequirements(await storage().achievements.findById('chess', other.id)), sortedRequirements(other))
    })

    it('replaceRequirements with [] removes every requirement, and later ids are still new', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      assert.deepStrictEqual(await storage().transaction((tx) => tx.achievements.replaceRequirements(inserted.id, [])), [])
      assert.deepStrictEqual((await storage().achievements.findById('chess', inserted.id))?.requirements, [])
      const again = await storage().transaction((tx) =>
        tx.achievements.replaceRequirements(inserted.id, [{ type: null, description: 'Back', url: null, order: 0 }]),
      )
      assert.ok(again[0]!.id > Math.max(...inserted.requirements.map((requirement) => requirement.id)))
    })

    it("list returns the club's templates highest id first, keyset-paged by limit and beforeId", async () => {
      await withClubs(storage(), 'chess', 'go')
      const ids: number[] = []
      for (let i = 0; i < 7; i++) {
        ids.push((await insert(storage(), aNewTemplate({ name: `T${i}` }))).id)
        await insert(storage(), aNewTemplate({ club: 'go' }))
      }
      const newestFirst = [...ids].reverse()
      const all = await storage().achievements.list('chess', { limit: 100, beforeId: null })
      assert.deepStrictEqual(
        all.map((template) => template.id),
        newestFirst,
      )
      assert.ok(all.every((template) => template.club === 'chess' && template.requirements.length === 2))

      const first = await storage().achievements.list('chess', { limit: 3, beforeId: null })
      assert.deepStrictEqual(
        first.map((template) => template.id),
        newestFirst.slice(0, 3),
      )
      const second = await storage().achievements.list('chess', { limit: 3, beforeId: first.at(-1)!.id })
      assert.deepStrictEqual(
        second.map((template) => template.id),
        newestFirst.slice(3, 6),
      )
      const third = await storage().achievements.list('chess', { limit: 3, beforeId: second.at(-1)!.id })
      assert.deepStrictEqual(
        third.map((template) => template.id),
        newestFirst.slice(6),
      )
      assert.deepStrictEqual(await storage().achievements.list('chess', { limit: 3, beforeId: third.at(-1)!.id }), [])
    })

    it("list with a beforeId that is no template's id starts below it", async () => {
      await withClubs(storage(), 'chess', 'go')
      const a = await insert(storage())
      const foreign = await insert(storage(), aNewTemplate({ club: 'go' }))
      const b = await insert(storage())
      const below = await storage().achievements.list('chess', { limit: 10, beforeId: foreign.id })
      assert.deepStrictEqual(
        below.map((template) => template.id),
        [a.id],
      )
      const above = await storage().achievements.list('chess', { limit: 10, beforeId: b.id + 1000 })
      assert.deepStrictEqual(
        above.map((template) => template.id),
        [b.id, a.id],
      )
    })

    it('list items equal what findById returns', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      const [listed] = await storage().achievements.list('chess', { limit: 1, beforeId: null })
      const found = await storage().achievements.findById('chess', inserted.id)
      assert.ok(listed && found)
      assert.deepStrictEqual({ ...listed, requirements: sortedRequirements(listed) }, { ...found, requirements: sortedRequirements(found) })
    })

    it('list of a club without templates returns []', async () => {
      await withClubs(storage(), 'chess')
      assert.deepStrictEqual(await storage().achievements.list('chess', { limit: 20, beforeId: null }), [])
      assert.deepStrictEqual(await storage().achievements.list('absent', { limit: 20, beforeId: null }), [])
    })

    it('a unit of work that inserted a template and then threw leaves nothing: no template, no requirements', async () => {
      await withClubs(storage(), 'chess')
      const failure = new Error('work failed')
      let insertedId = 0
      await assert.rejects(
        storage().transaction(async (tx) => {
          const template = await tx.achievements.insert(aNewTemplate())
          insertedId = template.id
          assert.ok(await tx.achievements.findById('chess', template.id), 'the unit reads its own insert')
          throw failure
        }),
        (error) => error === failure,
      )
      assert.ok(insertedId > 0)
      assert.equal(await storage().achievements.findById('chess', insertedId), null)
      assert.deepStrictEqual(await storage().achievements.list('chess', { limit: 20, beforeId: null }), [])
      // Nothing of it lingers: the next template gets exactly what was inserted.
      const next = await insert(storage(), aNewTemplate({ requirements: [] }))
      assert.deepStrictEqual((await storage().achievements.findById('chess', next.id))?.requirements, [])
    })

    it('a unit of work that threw undoes its update and its requirement replacement', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      const before = await storage().achievements.findById('chess', inserted.id)
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.achievements.update({ ...inserted, name: 'Rolled back', tag: [] })
          await tx.achievements.replaceRequirements(inserted.id, [{ type: null, description: 'Rolled back', url: null, order: 0 }])
          throw new Error('work failed')
        }),
      )
      const after = await storage().achievements.findById('chess', inserted.id)
      assert.deepStrictEqual({ ...after, requirements: sortedRequirements(after) }, { ...before, requirements: sortedRequirements(before) })
    })

    it('update replaces the co-issuers as a whole, in order with their verified marks, on that template only', async () => {
      await withClubs(storage(), 'chess')
      const mine = await insert(storage(), aNewTemplate({ coIssuers: [] }))
      const other = await insert(storage())
      const partners = [
        { name: '대한체스연맹 <KCF> & "friends"', url: 'https://kchess.example/', isVerified: true },
        { name: 'Go Club', url: 'https://go.example/', isVerified: false },
        { name: 'Échecs Paris', url: 'http://echecs.example/club?x=1&y=2', isVerified: false },
      ]
      assert.equal(await storage().transaction((tx) => tx.achievements.update({ ...mine, coIssuers: partners })), true)
      assert.deepStrictEqual((await storage().achievements.findById('chess', mine.id))?.coIssuers, partners)
      const removed = [partners[0]!, partners[2]!]
      await storage().transaction((tx) => tx.achievements.update({ ...mine, coIssuers: removed }))
      assert.deepStrictEqual((await storage().achievements.findById('chess', mine.id))?.coIssuers, removed)
      assert.deepStrictEqual((await storage().achievements.findById('chess', other.id))?.coIssuers, other.coIssuers, 'the other template keeps its own')
      await storage().transaction((tx) => tx.achievements.update({ ...mine, coIssuers: [] }))
      assert.deepStrictEqual((await storage().achievements.findById('chess', mine.id))?.coIssuers, [])
    })

    it('a unit of work that threw undoes its co-issuer change', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      await assert.rejects(
        storage().transaction(async (tx) => {
          await tx.achievements.update({ ...inserted, coIssuers: [...inserted.coIssuers, { name: 'Ghost', url: 'https://ghost.example/', isVerified: true }] })
          throw new Error('abort')
        }),
        /abort/,
      )
      assert.deepStrictEqual((await storage().achievements.findById('chess', inserted.id))?.coIssuers, inserted.coIssuers)
    })

    it('changing the co-issuers of a returned or updated template changes nothing stored', async () => {
      await withClubs(storage(), 'chess')
      const inserted = await insert(storage())
      const next = { ...inserted, coIssuers: [{ name: 'Go Club', url: 'https://go.example/', isVerified: false }] }
      await storage().transaction((tx) => tx.achievements.update(next))
      next.coIssuers[0]!.isVerified = true
      next.coIssuers.push({ name: 'Pushed', url: 'https://pushed.example/', isVerified: true })
      const found = await storage().achievements.findById('chess', inserted.id)
      found!.coIssuers[0]!.name = 'Mutated'
      assert.deepStrictEqual((await storage().achievements.findById('chess', inserted.id))?.coIssuers, [
        { name: 'Go Club', url: 'https://go.example/', isVerified: false },
      ])
    })

    it('changing a returned template or the inserted object changes nothing stored', async () => {
      await withClubs(storage(), 'chess')
      const input = aNewTemplate()
      const inserted = await insert(storage(), input)
      input.tag.push('mutated')
      input.requirements[0]!.description = 'mutated'
      inserted.tag.push('mutated')
      inserted.program!.name = 'mutated'
      const found = await storage().achievements.findById('chess', inserted.id)
      assert.ok(found)
      assert.deepStrictEqual(found.tag, ['endgames', '체스'])
      assert.equal(found.program?.name, 'Spring league')
      assert.ok(found.requirements.every((requirement) => requirement.description !== 'mutated'))
      found.tag.length = 0
      assert.deepStrictEqual((await storage().achievements.findById('chess', inserted.id))?.tag, ['endgames', '체스'])
    })
  })
}

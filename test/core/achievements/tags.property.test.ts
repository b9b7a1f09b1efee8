import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { characterCount } from '../../../core/validation/text.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ACHIEVEMENTS, aTemplate, assertValidation, read } from '../../support/achievement-api.ts'

/**
 * Property: the tag rule of docs/api.md §4.10 rule 2 (trim, de-duplicate in first-seen order, at
 * most 30 of at most 50 characters), checked through HTTP create on random tag lists.
 */

const LATIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüñøß'
const HANGUL = '체스가나다라마바사아자차카타파하한글세계'

/** A letter, Latin or Hangul (a single code point each). */
const letter = fc.constantFrom(...LATIN, ...HANGUL)

/** 1..50 characters after trimming: letters at both ends, letters or spaces inside. */
const tagCore = fc.oneof(
  fc.string({ unit: letter, minLength: 1, maxLength: 50 }),
  fc.tuple(letter, fc.string({ unit: fc.oneof(letter, fc.constant(' ')), maxLength: 48 }), letter).map(([first, middle, last]) => first + middle + last),
)

/** White space the rule trims away. */
const padding = fc.string({ unit: fc.constantFrom(' ', '\t', '\u3000'), maxLength: 3 })

/**
 * Up to 40 tags drawn from a pool of distinct cores: sometimes mostly distinct (so that more than 30
 * distinct tags occur), always with random padding and repeats.
 */
const tagLists = fc
  .uniqueArray(tagCore, { minLength: 40, maxLength: 40 })
  .chain((pool) => fc.tuple(fc.shuffledSubarray(pool, { minLength: 0, maxLength: 40 }), fc.array(fc.nat({ max: 39 }), { maxLength: 40 })))
  .chain(([distinct, repeats]) => {
    const cores = [...distinct, ...(distinct.length > 0 ? repeats.map((index) => distinct[index % distinct.length]!) : [])].slice(0, 40)
    return fc
      .shuffledSubarray(cores, { minLength: cores.length, maxLength: cores.length })
      .chain((shuffled) => fc.tuple(...shuffled.map((core) => fc.tuple(padding, padding).map(([left, right]) => left + core + right))))
  })

const firstSeen = (tags: string[]): string[] => [...new Set(tags.map((tag) => tag.trim()))]

describe('tags through HTTP create (property)', () => {
  let api: Api
  before(async () => {
    api = await openApi()
  })
  after(async () => {
    await api.close()
  })

  it('a create stores the trimmed tags de-duplicated in first-seen order, or refuses too-many-tags exactly when more than 30 are distinct', async () => {
    let lastCreated: number | null = null
    let accepted = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(tagLists, async (tags) => {
        const expected = firstSeen(tags)
        const response = await api.call('POST', ACHIEVEMENTS, aTemplate({ tag: tags }))
        if (expected.length > 30) {
          refused++
          assertValidation(response, [{ message: 'too-many-tags', path: 'tag' }])
          const newest = await api.call('GET', `${ACHIEVEMENTS}?limit=1`)
          assert.equal(newest.body.data[0]?.id ?? null, lastCreated, 'a refused create stores nothing')
          return
        }
        accepted++
        assert.equal(response.status, 201, JSON.stringify(response.body))
        const stored: string[] = response.body.data.tag
        lastCreated = response.body.data.id
        assert.deepEqual(stored, expected)
        assert.ok(stored.length <= 30)
        assert.equal(new Set(stored).size, stored.length)
        for (const tag of stored) {
          assert.equal(tag, tag.trim())
          assert.ok(characterCount(tag) >= 1 && characterCount(tag) <= 50)
        }
        assert.deepEqual((await read(api, response.body.data.id)).tag, stored)
      }),
      {
        numRuns: 30,
        // Both outcomes at their boundary in every run, whatever the random draws.
        examples: [[Array.from({ length: 31 }, (_, i) => ` tag${i} `)], [Array.from({ length: 40 }, (_, i) => `${'\t'.repeat(i % 2)}태그${i % 30}`)]],
      },
    )
    // The generator must reach both outcomes, or the property proves half of the rule.
    assert.ok(accepted > 0, 'some lists were accepted')
    assert.ok(refused > 0, 'some lists were refused')
  })
})

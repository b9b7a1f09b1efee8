import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { criteriaNarrative } from '../../../core/achievements/narrative.ts'
import { orderRequirements } from '../../../core/achievements/order-requirements.ts'
import type { Requirement } from '../../../core/achievements/template.ts'

/**
 * Properties of `criteria.narrative` (docs/api.md §2.3) and of the requirement order it numbers
 * (§4.10 rule 8: `order` ascending, then `id` ascending).
 */

/** Printable text without line breaks. */
const plainText = fc.string({ minLength: 1, maxLength: 30 })
/** Text full of line breaks and other white space, as a client may send in a description. */
const brokenText = fc.string({
  unit: fc.constantFrom('a', 'b', '1', '.', ' ', '\t', '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029', '\u00a0'),
  minLength: 1,
  maxLength: 30,
})
const url = fc.webUrl({ size: 'small' })

/** Requirements with unique ids, colliding `order` values (so that the id tie-break matters) and a
 * description, a url, or both. */
const requirementLists = (text: fc.Arbitrary<string>): fc.Arbitrary<Requirement[]> =>
  fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 25 }).chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc
          .record({
            order: fc.integer({ min: 0, max: 5 }),
            content: fc.oneof(
              fc.record({ description: text, url: fc.constant(null) }),
              fc.record({ description: fc.constant(null), url }),
              fc.record({ description: text, url }),
            ),
          })
          .map(({ order, content }): Requirement => ({ id, order, type: null, ...content })),
      ),
    ),
  )

/** The order of rule 8, written independently of order-requirements.ts. */
function expectedOrder(requirements: readonly Requirement[]): Requirement[] {
  const sorted: Requirement[] = []
  for (const requirement of requirements) {
    const at = sorted.findIndex((other) => other.order > requirement.order || (other.order === requirement.order && other.id > requirement.id))
    sorted.splice(at === -1 ? sorted.length : at, 0, requirement)
  }
  return sorted
}

/** The text of a requirement's line: the description, then the url in parentheses. */
function line(requirement: Requirement): string {
  if (requirement.description && requirement.url) return `${requirement.description} (${requirement.url})`
  if (requirement.url) return `(${requirement.url})`
  return requirement.description!
}

const withoutWhiteSpace = (value: string) => value.replace(/[\s\u0085]/g, '')

describe('criteriaNarrative and orderRequirements (property)', () => {
  it('orderRequirements sorts by order ascending, then id ascending, and keeps every requirement', () => {
    fc.assert(
      fc.property(requirementLists(plainText), (requirements) => {
        const before = structuredClone(requirements)
        const ordered = orderRequirements(requirements)
        assert.deepEqual(ordered, expectedOrder(requirements))
        assert.deepEqual(requirements, before, 'the input is not reordered in place')
      }),
      { numRuns: 100 },
    )
  })

  it('the narrative numbers the requirements 1..n, one line each, in the order of orderRequirements', () => {
    fc.assert(
      fc.property(requirementLists(plainText), (requirements) => {
        const narrative = criteriaNarrative(requirements)
        if (requirements.length === 0) {
          assert.equal(narrative, '')
          return
        }
        const lines = narrative.split('\n')
        assert.equal(lines.length, requirements.length)
        const ordered = expectedOrder(requirements)
        lines.forEach((value, index) => {
          assert.equal(value, `${index + 1}. ${line(ordered[index]!).trim()}`)
        })
      }),
      { numRuns: 100 },
    )
  })

  it('line breaks inside requirements never add narrative lines: still one numbered line per requirement, text kept', () => {
    fc.assert(
      fc.property(requirementLists(brokenText), (requirements) => {
        const narrative = criteriaNarrative(requirements)
        const lines = requirements.length === 0 ? [] : narrative.split('\n')
        assert.equal(lines.length, requirements.length)
        const ordered = expectedOrder(requirements)
        lines.forEach((value, index) => {
          assert.ok(value.startsWith(`${index + 1}. `), value)
          assert.doesNotMatch(value, /[\n\v\f\r\u0085\u2028\u2029]/)
          assert.equal(withoutWhiteSpace(value), withoutWhiteSpace(`${index + 1}.${line(ordered[index]!)}`))
        })
      }),
      { numRuns: 100 },
    )
  })

  it('the narrative does not depend on the order the requirements come in', () => {
    fc.assert(
      fc.property(
        requirementLists(brokenText).chain((requirements) =>
          fc.tuple(fc.constant(requirements), fc.shuffledSubarray(requirements, { minLength: requirements.length, maxLength: requirements.length })),
        ),
        ([requirements, shuffled]) => {
          assert.equal(criteriaNarrative(shuffled), criteriaNarrative(requirements))
        },
      ),
      { numRuns: 100 },
    )
  })
})

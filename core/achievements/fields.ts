import * as v from 'valibot'
import { REQUIREMENT_TYPES, TEMPLATE_TYPES } from './template.ts'
import { textCharacters, type TextLines } from '../validation/plain-text.ts'
import { boundedText, characterCount, requiredText } from '../validation/text.ts'

/**
 * The field rules of templates as valibot pieces, shared by the v2, v1 and legacy write shapes so that
 * each rule of docs/api.md §4.10 exists once. Issue messages are the stable codes clients see in `errors[]`.
 * Rules that other resources share too (text, url, date, JSON object) are in core/validation/.
 */

export const MAX = { name: 200, description: 10_000, requirement: 2_000, programName: 200 } as const

export const REQUIREMENTS_MAX = 100

/** "Latin script" (docs/api.md §2.3): Latin letters with their accents, plus what no script owns (digits,
 * punctuation, spaces, symbols) and combining marks. Hangul, CJK, Cyrillic, Greek... are not. */
const LATIN = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u

export const isLatin = (text: string): boolean => LATIN.test(text)

/** An English slot (docs/api.md §4.10 rule 3): Latin script only; an empty string is stored as none. */
export const englishText = (max: number, lines: TextLines = 'single-line') =>
  v.pipe(
    v.nullish(v.pipe(boundedText(max, lines), v.check(isLatin, 'en-text-not-latin'))),
    v.transform((value) => (value && value.trim().length > 0 ? value : null)),
  )

/** A required text that a patch may send but not empty: `""`, blank and `null` are all `required` (rule 1). */
export const notEmptied = (max: number, lines: TextLines = 'single-line') =>
  v.optional(
    v.pipe(
      v.nullable(requiredText(max, lines)),
      v.check((value) => value !== null, 'required'),
    ),
  )

export const TAG_MAX_ITEMS = 30
export const TAG_MAX_LENGTH = 50
const COMMAS = /[,，]/

/**
 * Tags (docs/api.md §4.10 rule 2): each trimmed; an item that is empty after trimming or holds a comma is
 * rejected (`tag-contains-comma`), never silently dropped; then de-duplicated, and the stored set holds
 * at most 30 items of at most 50 characters.
 */
export const tagList = v.pipe(
  v.array(
    v.pipe(
      v.string('must-be-string'),
      v.trim(),
      ...textCharacters('single-line'),
      v.check((tag) => tag.length > 0 && !COMMAS.test(tag), 'tag-contains-comma'),
      v.check((tag) => characterCount(tag) <= TAG_MAX_LENGTH, 'tag-too-long'),
    ),
    'must-be-array',
  ),
  v.transform((tags) => [...new Set(tags)]),
  v.check((tags) => tags.length <= TAG_MAX_ITEMS, 'too-many-tags'),
)

export const templateType = v.picklist(TEMPLATE_TYPES, 'unknown-type')

export const requirementType = v.nullish(v.picklist(REQUIREMENT_TYPES, 'unknown-requirement-type'))

/** A legacy certificate-number prefix (docs/api.md §2.12): letters only, at most 5. */
export const prefixRule = v.pipe(
  v.string('must-be-string'),
  v.regex(/^[A-Za-z]*$/, 'prefix-letters-only'),
  v.maxLength(5, 'prefix-too-long'),
  v.transform((value) => (value === '' ? null : value)),
)

/** A design reference: a positive integer, or `null` for the default design. */
export const designId = v.nullable(v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(1, 'must-be-integer')))

/** A client-sent requirement order (v1, legacy): an integer of at least 0 (docs/api.md §8). */
export const requirementOrder = v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(0, 'order-negative'))

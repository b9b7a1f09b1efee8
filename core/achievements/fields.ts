import * as v from 'valibot'
import { REQUIREMENT_TYPES, TEMPLATE_TYPES } from './template.ts'
import { hasControlCharacter, hasLoneSurrogate, plainText, textCharacters, type TextLines } from '../text/plain-text.ts'

/**
 * The field rules of templates as valibot pieces, shared by the v2, v1 and legacy write shapes so that
 * each rule of spec §4.10 exists once. Issue messages are the stable codes clients see in `errors[]`.
 */

/** "Latin script" (spec §2.3): Latin letters with their accents, plus what no script owns (digits,
 * punctuation, spaces, symbols) and combining marks. Hangul, CJK, Cyrillic, Greek... are not. */
const LATIN = /^[\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]*$/u

export const isLatin = (text: string): boolean => LATIN.test(text)

/** Characters counted as users count them (code points), not UTF-16 units. */
export const characterCount = (text: string): number => [...text].length

/**
 * Free text of at most `max` characters, with the character rule of core/text/plain-text.ts. Text is
 * single-line unless the member is multi-line by nature (descriptions): only there may it hold `\n`.
 */
const text = (max: number, lines: TextLines) =>
  v.pipe(
    plainText(lines),
    v.check((value) => characterCount(value) <= max, 'too-long'),
  )

/** Text that must not be empty (after trimming white space). */
export const requiredText = (max: number, lines: TextLines = 'single-line') =>
  v.pipe(
    plainText(lines),
    v.check((value) => value.trim().length > 0, 'required'),
    v.check((value) => characterCount(value) <= max, 'too-long'),
  )

/** Optional text; an empty or blank string becomes `null`. */
export const optionalText = (max: number, lines: TextLines = 'single-line') =>
  v.pipe(
    v.nullish(text(max, lines)),
    v.transform((value) => (value && value.trim().length > 0 ? value : null)),
  )

/** An English slot (spec §4.10 rule 3): Latin script only; an empty string is stored as none. */
export const englishText = (max: number, lines: TextLines = 'single-line') =>
  v.pipe(
    v.nullish(v.pipe(text(max, lines), v.check(isLatin, 'en-text-not-latin'))),
    v.transform((value) => (value && value.trim().length > 0 ? value : null)),
  )

export const TAG_MAX_ITEMS = 30
export const TAG_MAX_LENGTH = 50
const COMMAS = /[,，]/

/**
 * Tags (spec §4.10 rule 2): each trimmed; an item that is empty after trimming or holds a comma is
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

/**
 * An absolute http(s) URL without control characters (which URL parsing would silently drop) or lone
 * surrogates (which it would silently turn into U+FFFD).
 */
export const isWebUrl = (value: string): boolean =>
  !hasControlCharacter(value, 'single-line') && !hasLoneSurrogate(value) && URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

/** A link: an absolute http(s) URL; an empty string is none. */
export const optionalUrl = v.pipe(
  v.nullish(
    v.pipe(
      v.string('must-be-string'),
      v.check((value) => value.trim() === '' || isWebUrl(value.trim()), 'invalid-url'),
      v.check((value) => value.length <= 2048, 'too-long'),
    ),
  ),
  v.transform((value) => (value && value.trim() !== '' ? value.trim() : null)),
)

/** spec §4.10 rule 4: a requirement needs a description or a url. */
export const hasDescriptionOrUrl = (requirement: { description?: string | null; url?: string | null }): boolean =>
  Boolean(requirement.description) || Boolean(requirement.url)

const isJsonObject = (input: unknown): input is Record<string, unknown> => typeof input === 'object' && input !== null && !Array.isArray(input)

/**
 * A member that must be a JSON object: any other value, an array too, is `must-be-object` (valibot's
 * object schemas take an array for an object, so `criteria: []` would pass as a patch that changes
 * nothing); an unknown member inside is `unknown-field`.
 */
export function jsonObject<const E extends v.ObjectEntries>(entries: E) {
  const object = v.strictObject(entries, 'unknown-field')
  // The object schema rides along on the check, so that the OpenAPI generator can show the object.
  const isObject = Object.assign(v.custom<Record<string, unknown>>(isJsonObject, 'must-be-object'), { objectSchema: object })
  return v.pipe(isObject, object)
}

export const REQUIREMENTS_MAX = 100

export const MAX = { name: 200, description: 10_000, requirement: 2_000, programName: 200 } as const

/** A legacy certificate-number prefix (spec §2.12): letters only, at most 5. */
export const prefixRule = v.pipe(
  v.string('must-be-string'),
  v.regex(/^[A-Za-z]*$/, 'prefix-letters-only'),
  v.maxLength(5, 'prefix-too-long'),
  v.transform((value) => (value === '' ? null : value)),
)

/** Whether the calendar date of an ISO timestamp exists (valibot's isoTimestamp lets 2024-02-30 through). */
export const isCalendarDate = (value: string): boolean => {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** An ISO 8601 date-time (legacy course dates), kept as sent. */
export const isoDateTimeText = v.pipe(v.string('must-be-string'), v.isoTimestamp('invalid-date-time'), v.check(isCalendarDate, 'invalid-date-time'))

/** A design reference: a positive integer, or `null` for the default design. */
export const designId = v.nullable(v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(1, 'must-be-integer')))

/** A client-sent requirement order (v1, legacy): an integer of at least 0 (spec §8). */
export const requirementOrder = v.pipe(v.number('must-be-integer'), v.integer('must-be-integer'), v.minValue(0, 'order-negative'))

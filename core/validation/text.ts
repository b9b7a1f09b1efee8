import * as v from 'valibot'
import { plainText, type TextLines } from './plain-text.ts'

/** Characters counted as users count them (code points), not UTF-16 units. */
export const characterCount = (text: string): number => [...text].length

/**
 * Free text of at most `max` characters, with the character rule of plain-text.ts. Text is single-line
 * unless the member is multi-line by nature (descriptions): only there may it hold `\n`.
 */
export const boundedText = (max: number, lines: TextLines) =>
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
    v.nullish(boundedText(max, lines)),
    v.transform((value) => (value && value.trim().length > 0 ? value : null)),
  )

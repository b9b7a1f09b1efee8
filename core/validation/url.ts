import * as v from 'valibot'
import { hasControlCharacter, hasLoneSurrogate } from './plain-text.ts'

/** The longest url any member holds. */
export const URL_MAX = 2048

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
      v.check((value) => value.length <= URL_MAX, 'too-long'),
    ),
  ),
  v.transform((value) => (value && value.trim() !== '' ? value.trim() : null)),
)

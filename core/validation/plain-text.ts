import * as v from 'valibot'

/**
 * The characters free text may hold, on every surface: names, descriptions, recipients, evidences,
 * revocation reasons, design names. Text is signed into credentials forever, so what cannot be shown
 * faithfully is refused (422 `validation-failed`), never rewritten:
 *
 * - `control-character`: C0 controls (U+0000 to U+001F), DEL (U+007F) and C1 controls (U+0080 to
 *   U+009F). A line feed (U+000A) is the one exception, and only in multi-line text (descriptions,
 *   requirement and evidence descriptions, the revocation reason). CR and TAB are refused everywhere:
 *   a line break is sent as `\n` alone, and a tab has no stable rendering (share page, PDF, wallets).
 * - `lone-surrogate`: a UTF-16 surrogate without its pair is not Unicode text; UTF-8 encoding would
 *   silently turn it into U+FFFD.
 *
 * Members that are trimmed (tags, `externalUserId`, `email`) are checked after trimming: the white
 * space around them, tabs and line breaks included, is dropped as documented and never stored.
 */
export type TextLines = 'single-line' | 'multi-line'

/* eslint-disable no-control-regex -- control characters are what these refuse */
const CONTROL: Record<TextLines, RegExp> = {
  'single-line': /[\u0000-\u001f\u007f-\u009f]/,
  'multi-line': /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/,
}
/* eslint-enable no-control-regex */

/** With the `u` flag a surrogate class matches only unpaired surrogates: a pair is one code point. */
const LONE_SURROGATE = /[\ud800-\udfff]/u

export const hasControlCharacter = (text: string, lines: TextLines): boolean => CONTROL[lines].test(text)

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text)

/** The two checks as valibot actions, for a pipe after the string schema (and after `v.trim()` where there is one). */
export const textCharacters = (lines: TextLines) =>
  [
    v.check((text: string) => !hasControlCharacter(text, lines), 'control-character'),
    v.check((text: string) => !hasLoneSurrogate(text), 'lone-surrogate'),
  ] as const

/** A string of plain text: `must-be-string`, then `control-character`, then `lone-surrogate`. */
export const plainText = (lines: TextLines) => v.pipe(v.string('must-be-string'), ...textCharacters(lines))

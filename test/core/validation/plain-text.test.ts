/** The character rule of free text, at its boundaries (core/validation/plain-text.ts). */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as v from 'valibot'
import { hasControlCharacter, hasLoneSurrogate, plainText } from '../../../core/validation/plain-text.ts'
import { ProblemError } from '../../../core/errors.ts'
import { createCoreHarness } from '../../support/core-issuer.ts'

describe('plain text', () => {
  it('control characters are exactly U+0000..U+001F, U+007F..U+009F; LF only in multi-line text', () => {
    for (let code = 0; code <= 0xff; code++) {
      const char = String.fromCharCode(code)
      const control = code <= 0x1f || (code >= 0x7f && code <= 0x9f)
      assert.equal(hasControlCharacter(`a${char}b`, 'single-line'), control, `U+${code.toString(16)}`)
      assert.equal(hasControlCharacter(`a${char}b`, 'multi-line'), control && code !== 0x0a, `U+${code.toString(16)} multi-line`)
    }
    for (const other of ['\u00a0', '\u2028', '\u200b', '\u3000', '가', '😀']) assert.equal(hasControlCharacter(other, 'single-line'), false)
  })

  it('a lone surrogate is found wherever it is; pairs are not', () => {
    for (const text of ['\ud800', 'a\udbff', '\udc00a', '\ude00\ud83d', '😀\ud800']) assert.equal(hasLoneSurrogate(text), true, JSON.stringify(text))
    for (const text of ['', 'abc', '😀', '𝄞x', '한국어']) assert.equal(hasLoneSurrogate(text), false, text)
  })

  it('reports the first failing rule in order: must-be-string, control-character, lone-surrogate', () => {
    const first = (input: unknown) => v.safeParse(plainText('single-line'), input).issues?.[0]?.message
    assert.equal(first(1), 'must-be-string')
    assert.equal(first('a\u0000\ud800'), 'control-character')
    assert.equal(first('\ud800'), 'lone-surrogate')
    assert.equal(first('fine'), undefined)
  })

  it('a club name (the issuer name in every credential) follows the same rule', async () => {
    const { issuer, close } = createCoreHarness()
    try {
      await assert.rejects(
        issuer.clubs.create({ domain: 'a', name: 'Chess\nClub' }),
        (error: unknown) => error instanceof ProblemError && error.errors?.[0]?.message === 'control-character',
      )
      await assert.rejects(
        issuer.clubs.create({ domain: 'b', name: 'Chess\ud800' }),
        (error: unknown) => error instanceof ProblemError && error.errors?.[0]?.message === 'lone-surrogate',
      )
    } finally {
      await close()
    }
  })
})

import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { describe, it } from 'node:test'
import { fileDigestOf } from '../../../core/csv-uploads/file-digest.ts'

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

describe('the digest of a kept CSV file', () => {
  it('is the SHA-256 of the text in UTF-8, hashed in slices with a pause between', async () => {
    let pauses = 0
    const pause = async () => {
      pauses++
    }
    const text = 'externalUserId,name,email\r\n' + '김민준,kim@example.org\n'.repeat(150_000)
    assert.equal(await fileDigestOf(text, pause), sha256Hex(text))
    assert.ok(pauses >= 3, `${pauses} pauses`)
    assert.equal(await fileDigestOf('', pause), sha256Hex(''))
  })

  it('a character outside the BMP split by a slice boundary is hashed as the one character', async () => {
    // The high surrogate of 𝄞 at the last index of the first slice (256 Ki characters).
    const text = 'a'.repeat(256 * 1024 - 1) + '𝄞' + 'b'
    assert.equal(text.charCodeAt(256 * 1024 - 1), 0xd834)
    assert.equal(await fileDigestOf(text, async () => {}), sha256Hex(text))
  })
})

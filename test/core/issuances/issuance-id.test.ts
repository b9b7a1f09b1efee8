/**
 * Random issuance ids: drawn from core's RandomSource, below 2^53, and a drawn id that is
 * taken is drawn again because the store refuses it, not because collisions are unlikely.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { randomIssuanceId, withFreshIssuanceId } from '../../../core/issuances/issuance-id.ts'
import { StorageConflict } from '../../../core/errors.ts'
import { webCryptoRandom, type RandomSource } from '../../../core/ports/random.ts'
import { createCoreHarness, type CoreHarness } from '../../support/core-issuer.ts'
import { recipients } from '../../support/issuance-api.ts'

/**
 * A RandomSource that answers draws of issuance ids (7 bytes each, several at once for a batch) from
 * `script` first, one scripted id per 7 bytes and WebCrypto's bytes after the script; other draws from WebCrypto.
 */
function scriptedIds(script: number[][]): RandomSource {
  const queue = script.map((bytes) => Uint8Array.from(bytes))
  return {
    bytes: (length) => {
      const bytes = webCryptoRandom.bytes(length)
      if (length % 7 === 0) for (let at = 0; at < length && queue.length > 0; at += 7) bytes.set(queue.shift()!, at)
      return bytes
    },
    uuid: () => webCryptoRandom.uuid(),
  }
}

describe('randomIssuanceId', () => {
  it('takes 53 bits of 7 random bytes: all ones is 2^53 - 1, the top three bits are dropped', () => {
    assert.equal(randomIssuanceId(scriptedIds([[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]])), Number.MAX_SAFE_INTEGER)
    assert.equal(randomIssuanceId(scriptedIds([[0xe0, 0, 0, 0, 0, 0, 1]])), 1)
    assert.equal(randomIssuanceId(scriptedIds([[0x01, 0, 0, 0, 0, 0, 0]])), 2 ** 48)
  })

  it('never returns 0 (not an id any path accepts): it draws again', () => {
    assert.equal(
      randomIssuanceId(
        scriptedIds([
          [0xe0, 0, 0, 0, 0, 0, 0],
          [0, 0, 0, 0, 0, 0, 7],
        ]),
      ),
      7,
    )
  })

  it('is uniform enough that 10,000 draws from WebCrypto are distinct, safe and spread over the range', () => {
    const draws = Array.from({ length: 10_000 }, () => randomIssuanceId(webCryptoRandom))
    assert.equal(new Set(draws).size, draws.length)
    assert.ok(draws.every((id) => Number.isSafeInteger(id) && id > 0))
    assert.ok(draws.some((id) => id > 2 ** 52) && draws.some((id) => id < 2 ** 52))
  })
})

describe('withFreshIssuanceId', () => {
  it('gives up after eight conflicts in a row with the StorageConflict, and rethrows any other error at once', async () => {
    let attempts = 0
    await assert.rejects(
      withFreshIssuanceId(webCryptoRandom, async () => {
        attempts++
        throw new StorageConflict('taken')
      }),
      StorageConflict,
    )
    assert.equal(attempts, 8)
    attempts = 0
    const failure = new Error('disk full')
    await assert.rejects(
      withFreshIssuanceId(webCryptoRandom, async () => {
        attempts++
        throw failure
      }),
      (error) => error === failure,
    )
    assert.equal(attempts, 1)
  })
})

describe('issuing when a drawn id is taken', () => {
  const A = [0, 0, 0, 0, 0, 0, 42]
  const B = [0, 0, 0, 0, 0, 0, 43]
  let h: CoreHarness
  beforeEach(async () => {
    // The second recipient's first draw repeats the first recipient's id.
    h = createCoreHarness({ random: scriptedIds([A, A, B]) })
    await h.issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
  })
  afterEach(() => h.close())

  it('draws again: both recipients are issued, under distinct ids, in one batch', async () => {
    const templateId = (await h.issuer.achievements.create('chess', { name: 'Openings', description: 'Knows them.' })).id
    const { result } = await h.issuer.issuances.issue('chess', { achievementFormId: templateId, recipients: recipients(2) })
    assert.equal(result.summary.ok, 2)
    assert.deepStrictEqual(
      result.results.map((item) => (item as { resourceId: number }).resourceId),
      [42, 43],
    )
    const listed = await h.issuer.issuances.list('chess', {})
    assert.deepStrictEqual(
      listed.data.map((item) => item.id),
      [43, 42],
    )
  })
})

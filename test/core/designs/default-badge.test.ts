import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { defaultBadgePng } from '../../../core/designs/default-badge.ts'

/**
 * The default badge PNG is drawn pixel by pixel (50 to 160 ms of the event loop): once per colour, not
 * once per `file?format=png` request.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
describe('the default badge PNG', () => {
  it('is drawn once per colour: later calls, also concurrent ones, get the very same bytes', async () => {
    const [first, concurrent] = await Promise.all([defaultBadgePng(), defaultBadgePng()])
    assert.equal(concurrent, first, 'one drawing for concurrent callers')
    assert.equal(await defaultBadgePng(), first, 'and for later ones')
    assert.equal(await defaultBadgePng({ color: '#1F3A5F' }), first, 'the colour is case-insensitive')
  })

  it('is drawn again for another colour, and a colour that is not #rrggbb is refused, not remembered', async () => {
    const red = await defaultBadgePng({ color: '#aa0000' })
    assert.notEqual(red, await defaultBadgePng())
    assert.notDeepEqual(red, await defaultBadgePng())
    await assert.rejects(defaultBadgePng({ color: 'red' }), TypeError)
    await assert.rejects(defaultBadgePng({ color: 'red' }), TypeError)
  })
})

/**
 * The share card's SVG (core/share-cards/): names wrapped to the card's width by estimated advances, a
 * badge SVG nested in the badge box (scaled by a viewBox it may lack), and every text escaped. The
 * drawing itself is tested through the renderer (test/http/share-page/share-card.test.ts).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import { shareCardSvg } from '../../../core/share-cards/card-svg.ts'
import { nestSvg } from '../../../core/share-cards/nest-svg.ts'
import { ems, wrapText } from '../../../core/share-cards/wrap-text.ts'

const BOX = { x: 80, y: 135, side: 360 }

describe('wrapText', () => {
  it('keeps a name that fits on one line as it is', () => {
    assert.deepEqual(wrapText('체스 입문', { width: 600, fontSize: 60, maxLines: 3 }), ['체스 입문'])
  })

  it('breaks at spaces, never past the width, and ends a cut name with an ellipsis', () => {
    const lines = wrapText('체스 입문 과정 수료 고급 오프닝 이론 엔드게임 기술 실전 토너먼트', { width: 600, fontSize: 60, maxLines: 3 })
    assert.equal(lines.length, 3)
    for (const line of lines) assert.ok(ems(line) * 60 <= 600, `${line} fits`)
    assert.ok(lines[2]!.endsWith('…'))
    assert.ok(lines.slice(0, 2).every((line) => !line.startsWith(' ') && !line.endsWith(' ')))
  })

  it('breaks inside a word wider than a line', () => {
    const lines = wrapText('가'.repeat(25), { width: 600, fontSize: 60, maxLines: 3 })
    assert.deepEqual(lines, ['가'.repeat(10), '가'.repeat(10), '가'.repeat(5)])
  })
})

describe('nestSvg', () => {
  it('places the badge in the box and gives a root without viewBox one from its width and height', () => {
    const nested = nestSvg('<svg xmlns="http://www.w3.org/2000/svg" width="64px" height="64"><circle r="4"/></svg>', BOX)
    assert.equal(
      nested,
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" x="80" y="135" width="360" height="360" preserveAspectRatio="xMidYMid meet"><circle r="4"/></svg>',
    )
  })

  it('keeps a viewBox there is, and replaces the root placement attributes', () => {
    const nested = nestSvg('<svg xmlns="http://www.w3.org/2000/svg" x="9" width="100%" viewBox="0 0 10 20" preserveAspectRatio="none"/>', BOX)
    assert.equal(
      nested,
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 20" x="80" y="135" width="360" height="360" preserveAspectRatio="xMidYMid meet"/>',
    )
  })

  it('is null for text that does not start with an <svg> root', () => {
    assert.equal(nestSvg('<g/>', BOX), null)
  })
})

describe('shareCardSvg', () => {
  it('is well-formed 1200×630 SVG with the names escaped as text and the font the renderer loads', () => {
    const svg = shareCardSvg({ achievementName: '<script>alert(1)</script> & 체스', clubName: '"Chess" <Club>', badge: null })
    const errors: string[] = []
    const document = new DOMParser({ onError: (level, message) => void errors.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml')
    assert.deepEqual(errors, [])
    const root = document.documentElement!
    assert.deepEqual([root.getAttribute('width'), root.getAttribute('height')], ['1200', '630'])
    assert.equal(document.getElementsByTagName('script').length, 0)
    // The card's own texts (the built-in badge, nested, has its own): the name's lines, the club, the footer.
    const own = Array.from(document.getElementsByTagName('text')).filter((text) => text.parentNode === root)
    const texts = own.map((text) => text.textContent)
    assert.equal(texts.slice(0, -2).join(''), '<script>alert(1)</script> & 체스', JSON.stringify(texts))
    assert.equal(texts.at(-2), '"Chess" <Club>')
    assert.ok(
      own.every((text) => text.getAttribute('font-family') === 'Pretendard'),
      'every text of the card in Pretendard',
    )
  })
})

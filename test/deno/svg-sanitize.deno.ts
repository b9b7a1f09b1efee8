/**
 * The SVG sanitiser of badge designs on Deno: core parses with @xmldom/xmldom, pure JS, so
 * the same allow-list holds on every runtime. The realistic badge comes out as on Node, byte for byte,
 * and a bypass is refused.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sanitizeSvg } from '../../core/designs/sanitize-svg.ts'
import { BADGE_SVG, BADGE_SVG_SANITISED, BYPASSES } from '../support/svg-designs.ts'

describe('the SVG sanitiser on Deno', () => {
  it('keeps the realistic badge as on Node and refuses every bypass', () => {
    assert.deepEqual(sanitizeSvg(new TextEncoder().encode(BADGE_SVG), 'upload'), { ok: true, svg: BADGE_SVG_SANITISED })
    for (const bypass of BYPASSES) {
      const result = sanitizeSvg(bypass.svg, 'upload')
      assert.equal(result.ok ? 'accepted' : result.problem, 'image-svg-active-content', bypass.name)
    }
  })
})

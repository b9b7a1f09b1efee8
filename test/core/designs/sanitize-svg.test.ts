/**
 * The SVG sanitiser of badge designs ("No script in a badge"): the strict CSS reader, what is
 * dropped silently, what a stored design loses when baked, and properties over generated documents that
 * mix kept, active and foreign markup.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { DOMParser } from '@xmldom/xmldom'
import { sanitizeSvg, storedBadgeSvg } from '../../../core/designs/sanitize-svg.ts'
import { cssValueProblem, sanitizeStyle } from '../../../core/designs/svg-css.ts'
import { imageProblem } from '../../../core/designs/image.ts'
import { BADGE_SVG, BADGE_SVG_SANITISED, BYPASSES, SVG_NS } from '../../support/svg-designs.ts'

const svg = (body: string, attributes = '') => `<svg xmlns="${SVG_NS}"${attributes}>${body}</svg>`

describe('the strict CSS of presentation attributes and style', () => {
  it('takes the values badges are drawn with', () => {
    for (const value of [
      '#fff',
      'none',
      'currentColor',
      'url(#gold)',
      "url('#gold') #000",
      'URL( "#a-1.b" )',
      'rgb(12, 34, 56)',
      'rgba(0,0,0,.5)',
      '-0.02em',
      '1e-5',
      '50%',
      '\'Noto Sans KR\', "Malgun Gothic", sans-serif',
      'bold 12px/1.2 serif',
      '4 2',
      '5,5',
      'translate(10 20) rotate(45 5 5) scale(-1, 1)',
      'matrix(1 0 0 1 10 10)',
      'drop-shadow(0 1px 2px #000) blur(2px)',
      'red !important',
      'calc(100% - 4px)',
      '맑은 고딕',
    ])
      assert.equal(cssValueProblem(value), null, value)
  })

  it('refuses what loads, runs or hides from this reading, naming it', () => {
    const cases: [string, RegExp][] = [
      ['url(https://evil.example/p.svg#x)', /url\(\)/],
      ['url(p.svg#x)', /url\(\)/],
      ['url(#x', /url\(\)/],
      ['image-set("https://evil.example/a.png" 1x)', /image-set\(\)/],
      ['expression(alert(1))', /expression\(\)/],
      ['var(--x)', /var\(\)/],
      ['u\\72l(https://evil.example/)', /escape/],
      ['url(#a)/**/', /comment/],
      ['@import "x"', /at-rule/],
      ['javascript:alert(1)', /CSS text ":alert/],
      ['red; background: url(x)', /CSS text ";/],
      ['rgb(1,2,3', /unbalanced/],
      ['1)', /unbalanced/],
      ['"a\\"b"', /escape/],
    ]
    for (const [value, why] of cases) assert.match(cssValueProblem(value) ?? 'accepted', why, value)
  })

  it('keeps the presentation properties of a style attribute, drops others, refuses unsafe values anywhere', () => {
    assert.deepEqual(sanitizeStyle(" Fill : url(#g) ; -inkscape-font-specification:'A;B'; stroke:#000;; mix-blend-mode: multiply"), {
      ok: true,
      style: 'fill:url(#g);stroke:#000;mix-blend-mode:multiply',
      dropped: ['-inkscape-font-specification'],
    })
    for (const style of [
      'behavior: url(x.htc)',
      '-moz-binding: url(https://evil.example/x.xml#b)',
      'background-image: image-set("x.png" 1x)',
      'fill',
      ': red',
      'fill: red }',
    ]) {
      assert.equal(sanitizeStyle(style).ok, false, style)
    }
  })
})

describe('sanitizeSvg', () => {
  it('drops comments, processing instructions (also xml-stylesheet), metadata and foreign-namespace markup silently', () => {
    const source = `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/x.css"?><!-- a -->${svg(
      `<!-- b --><?pi x?><metadata><x/></metadata><e:thing xmlns:e="urn:editor"><circle r="9"/></e:thing><circle r="1" e:a="b" xmlns:e="urn:editor" data-x="1" version="2"/>`,
    )}`
    assert.deepEqual(sanitizeSvg(source, 'upload'), { ok: true, svg: svg('<circle r="1"/>') })
  })

  it('writes text and CDATA as escaped text, drops characters XML forbids that came from references, and keeps xml:space', () => {
    const result = sanitizeSvg(svg('<text xml:space="preserve">a<![CDATA[ < & ]]>&#0;&#xD800;]]&gt;</text>'), 'upload')
    assert.deepEqual(result, { ok: true, svg: svg('<text xml:space="preserve">a &lt; &amp; ]]&gt;</text>') })
  })

  it('keeps only the text of title and desc, which an HTML page inlining the SVG parses as HTML', () => {
    assert.deepEqual(sanitizeSvg(svg('<title>A <image href="#x"/>badge</title><desc><g>d</g></desc>'), 'upload'), {
      ok: true,
      svg: svg('<title>A badge</title><desc/>'),
    })
  })

  it('reads an unprefixed <svg> without xmlns as SVG, as a page inlining it would, and declares the namespace', () => {
    assert.deepEqual(sanitizeSvg('<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>', 'upload'), {
      ok: true,
      svg: svg('<rect width="1" height="1"/>', ' viewBox="0 0 1 1"'),
    })
  })

  it('keeps href only to #id (and data: PNG, JPEG, GIF on <image>), and only where it means something', () => {
    assert.deepEqual(sanitizeSvg(svg('<rect href="#a"/>'), 'upload'), { ok: true, svg: svg('<rect/>') })
    for (const bad of [
      '<use href="#a b"/>',
      '<use href=" javascript:x"/>',
      '<image href="data:image/svg+xml;base64,PHN2Zy8+"/>',
      '<image href="#a"/>',
      '<rect href="https://x"/>',
    ]) {
      assert.equal(sanitizeSvg(svg(bad), 'upload').ok, false, bad)
    }
  })

  it('keeps the realistic badge as the HTTP test expects, and sanitising is idempotent', async () => {
    assert.deepEqual(sanitizeSvg(BADGE_SVG, 'upload'), { ok: true, svg: BADGE_SVG_SANITISED })
    assert.deepEqual(sanitizeSvg(BADGE_SVG_SANITISED, 'upload'), { ok: true, svg: BADGE_SVG_SANITISED })
    assert.equal(await imageProblem('image/svg+xml', new TextEncoder().encode(BADGE_SVG)), null)
  })

  it('takes every bypass out of a stored design instead of refusing it', () => {
    for (const bypass of BYPASSES) {
      const cleaned = storedBadgeSvg(new TextEncoder().encode(bypass.svg))
      assert.ok(cleaned, bypass.name)
      assert.doesNotMatch(cleaned, /script|pwned|foreignObject|<set|<style|evil\.example|\\/i, bypass.name)
      assert.deepEqual(sanitizeSvg(cleaned, 'upload'), { ok: true, svg: cleaned }, `${bypass.name}: the result passes the upload check unchanged`)
    }
  })

  it('answers every input with a verdict, never an exception (a stored row may be anything)', () => {
    for (const input of ['', 'x', '<', '<svg', '<svg xmlns:a="b"><a:b/></svg>', '\uFEFF<svg/>', '<svg><x:y/></svg>']) {
      assert.doesNotThrow(() => sanitizeSvg(input, 'stored'), input)
    }
    assert.equal(sanitizeSvg(Uint8Array.of(0xff, 0xfe), 'upload').ok, false)
  })
})

describe('sanitizeSvg over generated documents', () => {
  const KEPT = ['g', 'rect', 'circle', 'text', 'tspan', 'use', 'defs', 'linearGradient', 'stop', 'title']
  const ACTIVE = ['script', 's:script', 'h:script', 'foreignObject', 'set', 'animate', 'style', 'a', 'iframe', 'h:iframe', 'handler', 'feImage']
  const OTHER = ['e:thing', 'metadata', 'switch']
  const ATTRIBUTES = [
    'id="a"',
    'fill="#c00"',
    'fill="url(#a)"',
    'fill="url(https://evil.example/#a)"',
    'style="fill:red;stroke:u\\72l(x)"',
    'style="stroke-width:2;-x-y:1"',
    'onload="pwned()"',
    's:onclick="pwned()"',
    'href="#a"',
    'href="javascript:pwned()"',
    'xlink:href="#a"',
    'xlink:href="https://evil.example/x.svg#a"',
    'e:x="1"',
    'data-y="&#106;avascript:"',
    'transform="rotate(4)"',
    'attributeName="href"',
    'to="javascript:pwned()"',
  ]
  const NAMESPACES = ` xmlns:s="${SVG_NS}" xmlns:h="http://www.w3.org/1999/xhtml" xmlns:e="urn:editor" xmlns:xlink="http://www.w3.org/1999/xlink"`

  /** The attributes, one per name (XML refuses a repeated one), as markup. */
  const oneOfEachName = (attributes: string[]) => [...new Map(attributes.map((a) => [a.slice(0, a.indexOf('=')), a])).values()].map((a) => ` ${a}`).join('')

  const tree: fc.Memo<string> = fc.memo((depth) =>
    fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('text &amp; more', '<!-- c -->', '<?pi x?>', '<![CDATA[<script>]]>', ''),
      fc
        .tuple(
          fc.constantFrom(...KEPT, ...ACTIVE, ...OTHER),
          fc.subarray(ATTRIBUTES, { maxLength: 3 }),
          depth > 1 ? fc.array(tree(depth - 1), { maxLength: 3 }) : fc.constant([]),
        )
        .map(([name, attributes, children]) => `<${name}${oneOfEachName(attributes)}>${children.join('')}</${name}>`),
    ),
  )

  it('a stored design comes out with nothing active, as a document the upload check takes unchanged', () => {
    fc.assert(
      fc.property(fc.array(tree(4), { maxLength: 4 }), (children) => {
        const source = `<svg xmlns="${SVG_NS}"${NAMESPACES}>${children.join('')}</svg>`
        const stored = sanitizeSvg(source, 'stored')
        assert.ok(stored.ok, source)
        assert.deepEqual(sanitizeSvg(stored.svg, 'upload'), { ok: true, svg: stored.svg }, source)
        // Markup only: text (`&lt;script&gt;` from a CDATA section) is inert.
        assert.doesNotMatch(
          stored.svg.replace(/>[^<]*</g, '><'),
          /script|pwned|evil|iframe|<set|<animate|<style|<a[ />]|on[a-z]+=|javascript|foreignObject|feImage|switch|[<\s][ehs]:/i,
          source,
        )
        // The output is XML a parser reads without a complaint.
        new DOMParser({ onError: (level, message) => assert.fail(`${level}: ${message} in ${stored.svg}`) }).parseFromString(stored.svg, 'image/svg+xml')
      }),
      { numRuns: 300 },
    )
  })

  it('an upload is either refused or stored exactly as a stored design would be baked', () => {
    fc.assert(
      fc.property(fc.array(tree(4), { maxLength: 4 }), (children) => {
        const source = `<svg xmlns="${SVG_NS}"${NAMESPACES}>${children.join('')}</svg>`
        const upload = sanitizeSvg(source, 'upload')
        if (upload.ok) assert.deepEqual(sanitizeSvg(source, 'stored'), upload)
        else assert.match(upload.problem, /^image-svg-(active-content|unsupported)$/)
      }),
      { numRuns: 300 },
    )
  })
})

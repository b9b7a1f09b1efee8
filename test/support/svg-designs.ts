/**
 * SVG badge designs shared by the design tests (test/http/files/design-svg.test.ts,
 * test/browser/badge-from-disk.test.ts, test/core/designs/sanitize-svg.test.ts): the bypasses of the old
 * deny-list, and a realistic badge with what the sanitiser makes of it.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK = 'http://www.w3.org/1999/xlink'

/**
 * Each bypass sets `window.pwned` (or opens a dialog, or navigates) where it runs, so the browser test
 * can show the harness catches it; `detail` is what the 422 must name.
 */
export const BYPASSES: { name: string; svg: string; detail: RegExp }[] = [
  {
    name: '<s:script> with a prefix bound to the SVG namespace',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><s:script xmlns:s="${SVG_NS}">window.pwned = 's:script'</s:script><circle cx="32" cy="32" r="30"/></svg>`,
    detail: /<s:script>/,
  },
  {
    name: '<h:script> in XHTML',
    svg: `<svg xmlns="${SVG_NS}" xmlns:h="http://www.w3.org/1999/xhtml" width="64" height="64"><h:script>window.pwned = 'h:script'</h:script><circle cx="32" cy="32" r="30"/></svg>`,
    detail: /<h:script>/,
  },
  {
    name: '&#106;avascript: in a <set>',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><use id="u" href="#c"/><circle id="c" cx="32" cy="32" r="30"/><set href="#u" attributeName="href" to="&#106;avascript:window.pwned='set'"/></svg>`,
    detail: /<set>/,
  },
  {
    name: '<set attributeName="href" to="https://…">',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><use id="u" href="#c"/><circle id="c" cx="32" cy="32" r="30"/><set href="#u" attributeName="href" to="https://evil.example/badge.svg#c"/></svg>`,
    detail: /<set>/,
  },
  {
    name: '<s:foreignObject>',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><s:foreignObject xmlns:s="${SVG_NS}" width="64" height="64"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:parent.pwned='foreignObject'"/></s:foreignObject></svg>`,
    detail: /<s:foreignObject>/,
  },
  {
    name: 'escaped CSS @\\69mport in a <style> element',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><style>@\\69mport 'https://evil.example/x.css'; circle { fill: red }</style><circle cx="32" cy="32" r="30"/></svg>`,
    detail: /<style>/,
  },
  {
    name: 'escaped CSS @\\69mport in a style attribute',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><circle cx="32" cy="32" r="30" style="@\\69mport 'https://evil.example/x.css'; fill: red"/></svg>`,
    detail: /CSS escape/,
  },
  {
    name: 'escaped CSS u\\72l( in a style attribute',
    svg: `<svg xmlns="${SVG_NS}" width="64" height="64"><circle cx="32" cy="32" r="30" style="fill: u\\72l(https://evil.example/paint.svg#p) red"/></svg>`,
    detail: /CSS escape/,
  },
  {
    name: 'an event attribute behind a namespace prefix',
    svg: `<svg xmlns="${SVG_NS}" xmlns:s="${SVG_NS}" width="64" height="64" onload="window.pwned='onload'"><circle cx="32" cy="32" r="30" s:onclick="window.pwned='s:onclick'"/></svg>`,
    detail: /event attribute/,
  },
  {
    name: 'an xlink:href to another document through an unusual prefix',
    svg: `<svg xmlns="${SVG_NS}" xmlns:l="${XLINK}" width="64" height="64"><use l:href="https://evil.example/sprite.svg#c"/></svg>`,
    detail: /l:href="https:\/\/evil\.example/,
  },
]

/** A 1 × 1 PNG, inline as a badge may hold one. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

/** A badge as Inkscape saves it: editor namespaces and metadata beside gradients, a clip, a mask, a filter, symbol and use, text on a path, an inline PNG. */
export const BADGE_SVG = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK}" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/" width="256" height="256" viewBox="0 0 256 256" version="1.1" id="svg1" inkscape:version="1.3" sodipodi:docname="badge.svg" role="img" aria-label="Chess basics">
  <sodipodi:namedview id="namedview1" pagecolor="#ffffff" inkscape:zoom="2"/>
  <title id="title1">Chess basics</title>
  <desc>Awarded for the 8-week course &amp; its exam</desc>
  <metadata><rdf:RDF><dc:title>Chess</dc:title></rdf:RDF></metadata>
  <defs>
    <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f9d976"/>
      <stop offset="1" style="stop-color:#b8860b;stop-opacity:1"/>
    </linearGradient>
    <radialGradient id="shine" xlink:href="#gold" cx="0.5" cy="0.3" r="0.7" gradientTransform="rotate(10)"/>
    <clipPath id="disc"><circle cx="128" cy="128" r="120"/></clipPath>
    <mask id="fade"><rect width="256" height="256" fill="#fff"/></mask>
    <filter id="shadow" x="-10%" y="-10%" width="120%" height="120%">
      <feGaussianBlur in="SourceAlpha" stdDeviation="3"/>
      <feOffset dx="0" dy="2" result="offset"/>
      <feMerge><feMergeNode in="offset"/><feMergeNode in="SourceGraphic"/></feMerge>
    </filter>
    <path id="arc" d="M 48 128 A 80 80 0 0 1 208 128"/>
    <symbol id="star" viewBox="-1 -1 2 2"><polygon points="0,-1 0.22,-0.3 0.95,-0.3 0.36,0.12 0.59,0.81 0,0.38 -0.59,0.81 -0.36,0.12 -0.95,-0.3 -0.22,-0.3"/></symbol>
  </defs>
  <g id="layer1" inkscape:label="Badge" inkscape:groupmode="layer" filter="url(#shadow)">
    <circle cx="128" cy="128" r="120" fill="url(#gold)" stroke="#8b6508" stroke-width="4"/>
    <g clip-path="url(#disc)" mask="url(#fade)"><rect x="0" y="0" width="256" height="128" fill="url(#shine)" opacity="0.4"/></g>
    <use xlink:href="#star" x="-28" y="-28" width="56" height="56" transform="translate(128 100) rotate(15)" fill="#ffffff"/>
    <text font-family="'Noto Sans KR', sans-serif" font-size="18" fill="#3b2f00" xml:space="preserve"><textPath href="#arc" startOffset="50%" text-anchor="middle">CHESS  CLUB</textPath></text>
    <text x="128" y="180" text-anchor="middle" style="font-weight:bold;font-size:28px;fill:#3b2f00;-inkscape-font-specification:'Noto Sans KR Bold'" data-editor="x">체스 <tspan fill="#7a0000">입문</tspan></text>
    <image x="116" y="200" width="24" height="24" preserveAspectRatio="none" href="data:image/png;base64,${PNG}" sodipodi:absref="/home/me/x.png"/>
  </g>
</svg>
`

/**
 * What is stored for `BADGE_SVG`: the same drawing; gone are the XML declaration, the comment, the
 * editor's elements and attributes (`sodipodi:*`, `inkscape:*`, `data-editor`), `<metadata>`, `version`,
 * unused namespace declarations and the non-presentation style property.
 */
export const BADGE_SVG_SANITISED = `<svg xmlns="${SVG_NS}" xmlns:xlink="${XLINK}" width="256" height="256" viewBox="0 0 256 256" id="svg1" role="img" aria-label="Chess basics">
  
  <title id="title1">Chess basics</title>
  <desc>Awarded for the 8-week course &amp; its exam</desc>
  
  <defs>
    <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f9d976"/>
      <stop offset="1" style="stop-color:#b8860b;stop-opacity:1"/>
    </linearGradient>
    <radialGradient id="shine" xlink:href="#gold" cx="0.5" cy="0.3" r="0.7" gradientTransform="rotate(10)"/>
    <clipPath id="disc"><circle cx="128" cy="128" r="120"/></clipPath>
    <mask id="fade"><rect width="256" height="256" fill="#fff"/></mask>
    <filter id="shadow" x="-10%" y="-10%" width="120%" height="120%">
      <feGaussianBlur in="SourceAlpha" stdDeviation="3"/>
      <feOffset dx="0" dy="2" result="offset"/>
      <feMerge><feMergeNode in="offset"/><feMergeNode in="SourceGraphic"/></feMerge>
    </filter>
    <path id="arc" d="M 48 128 A 80 80 0 0 1 208 128"/>
    <symbol id="star" viewBox="-1 -1 2 2"><polygon points="0,-1 0.22,-0.3 0.95,-0.3 0.36,0.12 0.59,0.81 0,0.38 -0.59,0.81 -0.36,0.12 -0.95,-0.3 -0.22,-0.3"/></symbol>
  </defs>
  <g id="layer1" filter="url(#shadow)">
    <circle cx="128" cy="128" r="120" fill="url(#gold)" stroke="#8b6508" stroke-width="4"/>
    <g clip-path="url(#disc)" mask="url(#fade)"><rect x="0" y="0" width="256" height="128" fill="url(#shine)" opacity="0.4"/></g>
    <use xlink:href="#star" x="-28" y="-28" width="56" height="56" transform="translate(128 100) rotate(15)" fill="#ffffff"/>
    <text font-family="'Noto Sans KR', sans-serif" font-size="18" fill="#3b2f00" xml:space="preserve"><textPath href="#arc" startOffset="50%" text-anchor="middle">CHESS  CLUB</textPath></text>
    <text x="128" y="180" text-anchor="middle" style="font-weight:bold;font-size:28px;fill:#3b2f00">체스 <tspan fill="#7a0000">입문</tspan></text>
    <image x="116" y="200" width="24" height="24" preserveAspectRatio="none" href="data:image/png;base64,${PNG}"/>
  </g>
</svg>`

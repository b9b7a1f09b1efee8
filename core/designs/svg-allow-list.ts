/**
 * What an SVG badge design may hold ("No script in a badge"; docs/decisions/0021-svg-badge-designs.md).
 * Names are namespace-resolved: `<s:script xmlns:s="http://www.w3.org/2000/svg">` is the SVG
 * `script` element whatever its prefix, so every table here is keyed by namespace and local name.
 */

export const SVG_NS = 'http://www.w3.org/2000/svg'
export const XLINK_NS = 'http://www.w3.org/1999/xlink'
export const XML_NS = 'http://www.w3.org/XML/1998/namespace'
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** SVG elements kept, with their attributes and text. */
export const KEPT_ELEMENTS: ReadonlySet<string> = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'image',
  // Filter primitives that compute from their inputs only. feImage is left out: it loads a resource.
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feFuncR',
  'feFuncG',
  'feFuncB',
  'feFuncA',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'fePointLight',
  'feSpotLight',
  'feDropShadow',
  'feFlood',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'feSpecularLighting',
  'feTile',
  'feTurbulence',
])

/** Elements that hold nothing to render (editor data): dropped with their content, silently. */
export const DROPPED_SVG_ELEMENTS: ReadonlySet<string> = new Set(['metadata'])

/**
 * Local names refused in any namespace, also none: they run code, load or navigate somewhere, animate
 * attributes (which can set an `href` to `javascript:`), or embed another document or a style sheet.
 * Matching them in every namespace costs nothing and keeps out an element that some other reader
 * (an HTML parser inlining the markup) would take for the active one.
 */
export const ACTIVE_ELEMENTS: ReadonlySet<string> = new Set(
  [
    'script',
    'handler',
    'listener',
    'foreignObject',
    'iframe',
    'frame',
    'embed',
    'object',
    'applet',
    'audio',
    'video',
    'canvas',
    'a',
    'style',
    'link',
    'base',
    'meta',
    'cursor',
    'feImage',
    'font-face-uri',
    'set',
    'animate',
    'animateMotion',
    'animateTransform',
    'animateColor',
    'discard',
    'mpath',
    'include',
  ].map((name) => name.toLowerCase()),
)

/** Namespaces whose every element is refused: documents that run code or pull in other documents. */
export const ACTIVE_NAMESPACES: ReadonlyMap<string, string> = new Map([
  ['http://www.w3.org/1999/xhtml', 'XHTML'],
  ['http://www.w3.org/1998/Math/MathML', 'MathML'],
  ['http://www.w3.org/2001/xml-events', 'XML Events'],
  ['http://www.w3.org/2001/XInclude', 'XInclude'],
  ['http://www.w3.org/1999/XSL/Transform', 'XSLT'],
])

/**
 * SVG presentation attributes (SVG 1.1 §M.2, SVG 2 §6.6) kept, which are also the properties kept in a
 * `style` attribute. Their values pass the strict CSS check of `svg-css.ts`. `cursor` is left out: it
 * loads an image.
 */
export const PRESENTATION: ReadonlySet<string> = new Set([
  'alignment-baseline',
  'baseline-shift',
  'clip',
  'clip-path',
  'clip-rule',
  'color',
  'color-interpolation',
  'color-interpolation-filters',
  'color-rendering',
  'direction',
  'display',
  'dominant-baseline',
  'fill',
  'fill-opacity',
  'fill-rule',
  'filter',
  'flood-color',
  'flood-opacity',
  'font',
  'font-family',
  'font-size',
  'font-size-adjust',
  'font-stretch',
  'font-style',
  'font-variant',
  'font-weight',
  'glyph-orientation-horizontal',
  'glyph-orientation-vertical',
  'image-rendering',
  'isolation',
  'kerning',
  'letter-spacing',
  'lighting-color',
  'marker',
  'marker-end',
  'marker-mid',
  'marker-start',
  'mask',
  'mix-blend-mode',
  'opacity',
  'overflow',
  'paint-order',
  'pointer-events',
  'shape-rendering',
  'stop-color',
  'stop-opacity',
  'stroke',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'stroke-width',
  'text-anchor',
  'text-decoration',
  'text-rendering',
  'transform',
  'transform-origin',
  'unicode-bidi',
  'vector-effect',
  'visibility',
  'word-spacing',
  'writing-mode',
])

/**
 * Attributes without a namespace kept as they are: geometry, structure, gradients, filters and
 * accessibility. None of them names a resource; `href` is checked apart (`LOCAL_HREF_ELEMENTS`).
 */
export const PLAIN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'id',
  'class',
  'lang',
  'role',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'width',
  'height',
  'd',
  'points',
  'pathLength',
  'viewBox',
  'preserveAspectRatio',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'offset',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'markerUnits',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'startOffset',
  'method',
  'spacing',
  'side',
  'filterUnits',
  'primitiveUnits',
  'in',
  'in2',
  'result',
  'mode',
  'type',
  'values',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'order',
  'kernelMatrix',
  'divisor',
  'bias',
  'targetX',
  'targetY',
  'edgeMode',
  'kernelUnitLength',
  'preserveAlpha',
  'surfaceScale',
  'diffuseConstant',
  'specularConstant',
  'specularExponent',
  'scale',
  'xChannelSelector',
  'yChannelSelector',
  'stdDeviation',
  'radius',
  'baseFrequency',
  'numOctaves',
  'seed',
  'stitchTiles',
  'azimuth',
  'elevation',
  'z',
  'pointsAtX',
  'pointsAtY',
  'pointsAtZ',
  'limitingConeAngle',
  'tableValues',
  'slope',
  'intercept',
  'amplitude',
  'exponent',
])

/** `aria-*` attributes are kept too (accessible names of the badge). */
export const ARIA_ATTRIBUTE = /^aria-[a-z]+$/

/** Elements whose `href` / `xlink:href` is kept: to an element of the same document (`#id`) only. */
export const LOCAL_HREF_ELEMENTS: ReadonlySet<string> = new Set(['use', 'textPath', 'linearGradient', 'radialGradient', 'pattern', 'filter'])

/** `#id` of this document: no path, no scheme, nothing else to resolve. */
export const LOCAL_REFERENCE = /^#[\p{L}_][\p{L}\p{N}_.:-]*$/u

/** The only `href` of `<image>`: an inline PNG, JPEG or GIF (a raster image runs nothing). */
export const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif);base64,[A-Za-z0-9+/\s]*={0,2}\s*$/

/** XML attributes kept (`xml:space` changes how text renders). */
export const XML_ATTRIBUTES: ReadonlySet<string> = new Set(['space', 'lang'])

/** How deep elements may nest: a badge needs a few levels; the walk is recursive. */
export const MAX_DEPTH = 128

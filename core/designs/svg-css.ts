import { PRESENTATION } from './svg-allow-list.ts'

/**
 * The strict CSS of SVG badge designs: presentation attribute values and `style` attributes. A value is
 * a sequence of plain tokens (keywords, numbers with units, `#hex`, quoted strings, `,` `/`,
 * `!important`) and calls of an allow-listed function; `url()` only as `url(#id)`. Whatever is not on
 * that list is refused rather than dropped, so nothing that loads (`url(https:…)`, `image-set("…")`,
 * `@import`), runs (`expression()`) or hides from this reading (escapes such as `u\72l(`, comments) gets
 * through. The reader is an allow-list: a new CSS feature that loads something is refused until listed.
 */

/** Functions that compute a colour, a length or a transform from their arguments and load nothing. */
const FUNCTIONS: ReadonlySet<string> = new Set([
  'rgb',
  'rgba',
  'hsl',
  'hsla',
  'hwb',
  'lab',
  'lch',
  'oklab',
  'oklch',
  'color',
  'calc',
  'min',
  'max',
  'clamp',
  'matrix',
  'translate',
  'translatex',
  'translatey',
  'scale',
  'scalex',
  'scaley',
  'rotate',
  'skewx',
  'skewy',
  'blur',
  'brightness',
  'contrast',
  'drop-shadow',
  'grayscale',
  'hue-rotate',
  'invert',
  'opacity',
  'saturate',
  'sepia',
])

const TOKENS: [kind: 'space' | 'url' | 'function' | 'close' | 'plain', pattern: RegExp][] = [
  ['space', /\s+/y],
  ['url', /url\(\s*(?:#[\p{L}_][\p{L}\p{N}_.:-]*|'#[\p{L}_][\p{L}\p{N}_.:-]*'|"#[\p{L}_][\p{L}\p{N}_.:-]*")\s*\)/iuy],
  ['function', /(-?[\p{L}_][\p{L}\p{N}_-]*)\(/uy],
  ['close', /\)/y],
  ['plain', /!\s*important\b/iy],
  ['plain', /[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?(?:%|[a-z]+)?/iy],
  ['plain', /-{0,2}[\p{L}_][\p{L}\p{N}_-]*/uy],
  ['plain', /#[\p{L}\p{N}_-]+/uy],
  ['plain', /"[^"\\\n\r\f]*"|'[^'\\\n\r\f]*'/y],
  ['plain', /[,/*+-]/y],
]

/**
 * Why a CSS value is not plain (a sentence fragment for the problem's detail), or `null` when it is.
 * Used for presentation attributes and for each declaration of a `style` attribute.
 */
export function cssValueProblem(value: string): string | null {
  const early = cssTextProblem(value)
  if (early) return early
  let depth = 0
  let at = 0
  scan: while (at < value.length) {
    for (const [kind, pattern] of TOKENS) {
      pattern.lastIndex = at
      const match = pattern.exec(value)
      if (!match) continue
      if (kind === 'function') {
        const name = match[1]!.toLowerCase()
        if (name === 'url') return 'url() to something other than an element of the badge (#id)'
        if (!FUNCTIONS.has(name)) return `the CSS function ${name}()`
        depth++
      } else if (kind === 'close') {
        if (--depth < 0) return 'an unbalanced parenthesis'
      }
      at = pattern.lastIndex
      continue scan
    }
    return `the CSS text ${JSON.stringify(value.slice(at, at + 20))}`
  }
  return depth === 0 ? null : 'an unbalanced parenthesis'
}

/** Problems visible in the raw text, named as such because they are how deny-lists get bypassed. */
function cssTextProblem(text: string): string | null {
  if (text.includes('\\')) return 'a CSS escape (\\)'
  if (text.includes('/*')) return 'a CSS comment'
  if (text.includes('@')) return 'a CSS at-rule (@import, @font-face…)'
  if (/[{}<>]/.test(text)) return 'CSS blocks or markup in a style'
  return null
}

export type StyleResult = { ok: true; style: string; dropped: string[] } | { ok: false; reason: string }

/**
 * Reads a `style` attribute: each declaration's value must be plain (`cssValueProblem`), else the style
 * is refused; declarations of properties that are not SVG presentation properties are dropped (they
 * change nothing a badge needs) and named in `dropped`. Returns the kept declarations re-serialised
 * as `name:value;name:value`, names in lower case.
 */
export function sanitizeStyle(style: string): StyleResult {
  const early = cssTextProblem(style)
  if (early) return { ok: false, reason: early }
  const kept: string[] = []
  const dropped: string[] = []
  for (const declaration of splitDeclarations(style)) {
    if (declaration.trim() === '') continue
    const colon = declaration.indexOf(':')
    const name = (colon < 0 ? declaration : declaration.slice(0, colon)).trim().toLowerCase()
    const value = colon < 0 ? '' : declaration.slice(colon + 1).trim()
    if (!/^-{0,2}[a-z][a-z0-9-]*$/.test(name) || value === '')
      return { ok: false, reason: `the CSS declaration ${JSON.stringify(declaration.trim().slice(0, 40))}` }
    const problem = cssValueProblem(value)
    if (problem) return { ok: false, reason: `${problem} in the style property ${name}` }
    if (PRESENTATION.has(name)) kept.push(`${name}:${value}`)
    else dropped.push(name)
  }
  return { ok: true, style: kept.join(';'), dropped }
}

/** Splits at `;` outside quotes and parentheses (a font name may hold a `;`). */
function splitDeclarations(style: string): string[] {
  const parts: string[] = []
  let quote: string | null = null
  let depth = 0
  let start = 0
  for (let i = 0; i < style.length; i++) {
    const char = style[i]!
    if (quote) {
      if (char === quote) quote = null
    } else if (char === '"' || char === "'") quote = char
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === ';' && depth === 0) {
      parts.push(style.slice(start, i))
      start = i + 1
    }
  }
  parts.push(style.slice(start))
  return parts
}

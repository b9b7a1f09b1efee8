/** The XML namespace of baked OB 3.0 credentials in SVG (Open Badges 3.0, "Baking", SVG). */
export const OPENBADGES_NAMESPACE = 'https://purl.imsglobal.org/ob/v3p0'

/**
 * Bakes a signed credential into an SVG badge (Open Badges 3.0, "Baking", SVG): the root `<svg>` gets
 * `xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"` and, as its first child, an empty
 * `<openbadges:credential verify="…">` element whose `verify` attribute holds the compact JWT. The spec
 * puts a VC-JWT there and keeps the element's body for embedded-proof credentials (JSON in CDATA), so a
 * reader that follows it looks in `verify` first. The JWT is base64url and dots: nothing to escape.
 * A credential baked before is replaced, not doubled, whatever form it had (JWT in the body, JSON in
 * CDATA, `verify`, self-closing, another prefix bound to the OB 3.0 namespace). Text work only, so any
 * runtime runs it and the rest of the design stays byte for byte as it was.
 *
 * @throws TypeError when `svg` has no `<svg>` root element or `jwt` is not a compact JWS.
 * @example
 * const baked = bakeSvg(badgeSvg, credential.jwt)
 */
export function bakeSvg(svg: string, jwt: string): string {
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jwt)) throw new TypeError('bakeSvg: the credential is not a compact JWS')
  const source = withoutEarlierBakes(svg)
  const root = findRootStartTag(source)
  let attributes = source.slice(root.attributesStart, root.attributesEnd)
  const namespace = `xmlns:openbadges="${OPENBADGES_NAMESPACE}"`
  attributes = /\sxmlns:openbadges\s*=\s*("[^"]*"|'[^']*')/.test(attributes)
    ? attributes.replace(/(\s)xmlns:openbadges\s*=\s*("[^"]*"|'[^']*')/, `$1${namespace}`)
    : `${attributes.replace(/\s+$/, '')} ${namespace}`
  const element = `<openbadges:credential verify="${jwt}"></openbadges:credential>`
  const before = source.slice(0, root.attributesStart)
  const after = source.slice(root.end)
  // An empty root (`<svg ... />`) gets a body so that the credential can be its child.
  return root.selfClosing ? `${before}${attributes}>${element}</svg>${after}` : `${before}${attributes}>${element}${after}`
}

/**
 * Removes every `<P:credential>` element of an earlier bake, P being `openbadges` or any prefix the
 * document binds to the OB 3.0 namespace. Attribute values are skipped quote-aware, and a CDATA body is
 * skipped whole, so JSON holding `>` or `</P:credential>` inside CDATA does not end the element early.
 */
function withoutEarlierBakes(svg: string): string {
  const prefixes = new Set(['openbadges'])
  const binding = /\sxmlns:([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g
  for (const match of svg.matchAll(binding)) {
    if ((match[2] ?? match[3]) === OPENBADGES_NAMESPACE) prefixes.add(match[1]!)
  }
  let result = svg
  for (const prefix of prefixes) {
    const name = `${prefix.replace(/[.-]/g, '\\$&')}:credential`
    const element = new RegExp(`<${name}(?=[\\s/>])(?:[^>"']|"[^"]*"|'[^']*')*?(?:/>|>(?:<!\\[CDATA\\[[\\s\\S]*?\\]\\]>|[\\s\\S])*?</${name}\\s*>)\\s*`, 'g')
    result = result.replace(element, '')
  }
  return result
}

interface RootTag {
  /** Index just after `<svg`. */
  attributesStart: number
  /** Index of the `/>` or `>` that ends the start tag. */
  attributesEnd: number
  /** Index just after the start tag. */
  end: number
  selfClosing: boolean
}

/**
 * Finds the root element's start tag: skips the XML declaration, processing instructions, comments and a
 * DOCTYPE, then expects `<svg`; attribute values may hold `>` inside quotes.
 */
function findRootStartTag(text: string): RootTag {
  let i = 0
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (text.startsWith('\uFEFF', i)) i++
    else if (text.startsWith('<?', i)) i = endOf(text, '?>', i)
    else if (text.startsWith('<!--', i)) i = endOf(text, '-->', i)
    else if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) i = endOfDoctype(text, i)
    else break
  }
  if (!/^<svg[\s/>]/.test(text.slice(i, i + 5))) throw new TypeError('bakeSvg: the root element is not <svg>')
  const attributesStart = i + 4
  let quote: string | null = null
  for (let j = attributesStart; j < text.length; j++) {
    const char = text[j]!
    if (quote) {
      if (char === quote) quote = null
    } else if (char === '"' || char === "'") {
      quote = char
    } else if (char === '>') {
      const selfClosing = text[j - 1] === '/'
      return { attributesStart, attributesEnd: selfClosing ? j - 1 : j, end: j + 1, selfClosing }
    }
  }
  throw new TypeError('bakeSvg: the <svg> start tag is not closed')
}

function endOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from)
  if (at < 0) throw new TypeError(`bakeSvg: an unterminated ${terminator === '-->' ? 'comment' : 'processing instruction'}`)
  return at + terminator.length
}

function endOfDoctype(text: string, from: number): number {
  const subset = text.indexOf('[', from)
  const close = text.indexOf('>', from)
  if (close < 0) throw new TypeError('bakeSvg: an unterminated DOCTYPE')
  if (subset >= 0 && subset < close) return endOf(text, ']>', subset)
  return close + 1
}

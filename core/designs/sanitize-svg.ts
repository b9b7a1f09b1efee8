import { DOMParser } from '@xmldom/xmldom'
import type { Attr, Element, Node } from '@xmldom/xmldom'
import { cssValueProblem, sanitizeStyle } from './svg-css.ts'
import {
  ACTIVE_ELEMENTS,
  ACTIVE_NAMESPACES,
  ARIA_ATTRIBUTE,
  DATA_IMAGE,
  DROPPED_SVG_ELEMENTS,
  KEPT_ELEMENTS,
  LOCAL_HREF_ELEMENTS,
  LOCAL_REFERENCE,
  MAX_DEPTH,
  PLAIN_ATTRIBUTES,
  PRESENTATION,
  SVG_NS,
  XLINK_NS,
  XML_ATTRIBUTES,
  XML_NS,
  XMLNS_NS,
} from './svg-allow-list.ts'

/**
 * How a sanitised SVG is used. `upload`: a new design, where anything active or unsupported is refused
 * (the designer learns what to change). `stored`: a design stored before this sanitiser (an old row),
 * baked into a recipient's file, where refusing is no longer possible: the same things are dropped.
 */
export type SvgSanitizeMode = 'upload' | 'stored'

/** Why an SVG is refused; the codes are `errors[].message` of the 422 `validation-failed`. */
export type SvgProblem = 'image-not-svg' | 'image-svg-active-content' | 'image-svg-unsupported'

export type SvgSanitized = { ok: true; svg: string } | { ok: false; problem: SvgProblem; detail: string }

/**
 * Parses an SVG badge design as XML and re-serialises only what the allow-list of `svg-allow-list.ts`
 * keeps, by namespace-resolved names: SVG shapes, text, gradients, patterns, clips, masks, markers,
 * safe filter primitives and `data:` raster images; `href` to `#id` only; presentation attributes and
 * `style` in strict CSS (`svg-css.ts`). Refused on upload (`image-svg-active-content`): scripts, event
 * attributes, foreign objects and HTML, links, animations, `<style>`, DOCTYPE and entities, external
 * references, CSS that loads or hides anything. Dropped silently: comments, processing instructions,
 * `<metadata>`, elements and attributes of other namespaces (editor data), unknown plain attributes.
 * The output is UTF-8 text without an XML declaration, its root `<svg xmlns="http://www.w3.org/2000/svg">`,
 * and sanitising it again gives the same text.
 *
 * @example
 * const result = sanitizeSvg(uploadedBytes, 'upload')
 * if (!result.ok) throw validationFailed([{ message: result.problem, path: 'image' }], result.detail)
 */
export function sanitizeSvg(source: Uint8Array | string, mode: SvgSanitizeMode): SvgSanitized {
  let text: string
  try {
    text = typeof source === 'string' ? source : new TextDecoder('utf-8', { fatal: true }).decode(source)
  } catch {
    return refuse('image-not-svg', 'The SVG is not UTF-8 text.')
  }
  text = text.replace(/^\uFEFF/, '')
  if (mode === 'upload' && INVALID_XML_CHAR.test(text)) return refuse('image-not-svg', 'The SVG holds characters XML does not allow (control characters).')
  let root: Element
  try {
    root = parse(text)
  } catch (error) {
    // A DOCTYPE usually fails the parse through its entities (xmldom expands none), so name it.
    if (/<!DOCTYPE/.test(text)) return refuse('image-svg-active-content', `The SVG holds ${DOCTYPE}.`)
    return refuse('image-not-svg', `The SVG is not well-formed XML: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 200)}`)
  }
  if (root.ownerDocument?.doctype && mode === 'upload') return refuse('image-svg-active-content', `The SVG holds ${DOCTYPE}.`)
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
    return refuse('image-not-svg', 'The root element of the SVG is not <svg> in the SVG namespace (http://www.w3.org/2000/svg).')
  }
  const walk = createWalk(mode)
  const body = walk.element(root, 0)
  if (walk.finding) return refuse(walk.finding.problem, walk.finding.detail)
  return { ok: true, svg: body ?? `<svg xmlns="${SVG_NS}"/>` }
}

const TEXT_ONLY: ReadonlySet<string> = new Set(['title', 'desc'])

const DOCTYPE = 'a DOCTYPE (entity declarations can expand without bound or load other files); export the SVG without one'

/** Characters outside XML 1.0's `Char` production: refused on upload, dropped from old rows. */
const INVALID_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
const INVALID_XML_CHARS = new RegExp(INVALID_XML_CHAR.source, 'gu')

function refuse(problem: SvgProblem, detail: string): SvgSanitized {
  return { ok: false, problem, detail }
}

/**
 * Parses strictly: every xmldom warning or error (unquoted attributes, undefined entities, a second
 * root) fails the parse, as a browser's XML parser would. An unprefixed `<svg>` without `xmlns` is read
 * in the SVG namespace, as an HTML page inlining it would (the output always declares it).
 */
function parse(text: string): Element {
  let reported: string | null = null
  const parser = new DOMParser({
    onError: (_level, message) => {
      reported ??= message
      throw new Error(message)
    },
    xmlns: { '': SVG_NS },
  })
  try {
    const document = parser.parseFromString(text, 'image/svg+xml')
    if (!document.documentElement) throw new Error('no root element')
    return document.documentElement
  } catch (error) {
    // xmldom wraps the report in its ParseError; the first report is the fault to name.
    throw new Error(reported ?? (error as Error).message, { cause: error })
  }
}

interface Finding {
  problem: Exclude<SvgProblem, 'image-not-svg'>
  detail: string
}

/**
 * The walk over the parsed tree, emitting the kept markup. On upload the first refusal is recorded in
 * `finding` and the walk stops emitting; on stored designs refusals drop what they name instead.
 */
function createWalk(mode: SvgSanitizeMode) {
  const state = { finding: null as Finding | null, usesXlink: false }

  /** Records a refusal (upload); a stored design drops the thing instead. */
  function refuse(problem: Finding['problem'], detail: string): void {
    if (mode === 'upload') state.finding ??= { problem, detail }
  }

  function element(node: Element, depth: number): string | null {
    const namespace = node.namespaceURI
    const name = node.localName ?? node.nodeName
    const shown = `<${node.nodeName}>${namespace && namespace !== SVG_NS ? ` (namespace ${namespace})` : ''}`
    const activeNamespace = namespace ? ACTIVE_NAMESPACES.get(namespace) : undefined
    if (ACTIVE_ELEMENTS.has(name.toLowerCase()) || activeNamespace) {
      refuse(
        'image-svg-active-content',
        `The SVG holds ${shown}: ${activeNamespace ? `${activeNamespace} has no place in a badge image` : activeReason(name)}.`,
      )
      return null
    }
    if (namespace !== SVG_NS) return null // editor data (Inkscape, Illustrator, RDF…) or no namespace: renders nothing
    if (DROPPED_SVG_ELEMENTS.has(name)) return null
    if (!KEPT_ELEMENTS.has(name)) {
      refuse(
        'image-svg-unsupported',
        `The SVG holds ${shown}, which clubcred does not keep in badge designs (see the allow-list in docs/decisions/0021-svg-badge-designs.md).`,
      )
      return null
    }
    if (depth >= MAX_DEPTH) {
      refuse('image-svg-unsupported', `The SVG nests elements deeper than ${MAX_DEPTH} levels.`)
      return null
    }
    const attributes = attributesOf(node, name)
    let children = ''
    for (const child of Array.from(node.childNodes) as Node[]) {
      if (state.finding) return null
      // title and desc hold text only; an HTML parser inlining the SVG reads their content as HTML.
      if (child.nodeType === child.ELEMENT_NODE) children += TEXT_ONLY.has(name) ? '' : (element(child as Element, depth + 1) ?? '')
      else if (child.nodeType === child.TEXT_NODE || child.nodeType === child.CDATA_SECTION_NODE) children += escapeText(child.nodeValue ?? '')
      // Comments and processing instructions are dropped: they render nothing.
    }
    if (state.finding) return null
    const namespaces = depth === 0 ? ` xmlns="${SVG_NS}"${state.usesXlink ? ` xmlns:xlink="${XLINK_NS}"` : ''}` : ''
    return children === '' ? `<${name}${namespaces}${attributes}/>` : `<${name}${namespaces}${attributes}>${children}</${name}>`
  }

  /** The kept attributes as markup (` a="v"`…); a refused one is dropped (and recorded on upload). */
  function attributesOf(node: Element, element: string): string {
    let out = ''
    for (const attribute of Array.from(node.attributes) as Attr[]) out += attributeOf(attribute, element) ?? ''
    return out
  }

  /** One attribute as markup, or `null` when it is not kept. */
  function attributeOf(attribute: Attr, element: string): string | null {
    const namespace = attribute.namespaceURI
    const name = attribute.localName ?? attribute.name
    const value = attribute.value
    const shown = `${attribute.name}="${value.slice(0, 60)}" on <${element}>`
    if (namespace === XMLNS_NS || attribute.name === 'xmlns') return null // the output declares its own
    if (/^on/i.test(name)) return refused(`The SVG holds the event attribute ${shown}: scripts run where the badge is opened.`)
    if (name === 'href' && (namespace === null || namespace === XLINK_NS)) return hrefOf(attribute, element, shown)
    if (namespace === XML_NS) return XML_ATTRIBUTES.has(name) ? ` xml:${name}="${escapeAttribute(value)}"` : null
    if (namespace !== null) return null // editor data and other xlink:* attributes
    if (name === 'style') {
      const style = sanitizeStyle(value)
      if (!style.ok) return refused(`The SVG holds style="${value.slice(0, 60)}" on <${element}>: ${style.reason}.`)
      return style.style === '' ? null : ` style="${escapeAttribute(style.style)}"`
    }
    if (PRESENTATION.has(name)) {
      const problem = cssValueProblem(value)
      if (problem) return refused(`The SVG holds ${shown}: ${problem}.`)
      return ` ${name}="${escapeAttribute(value)}"`
    }
    if (PLAIN_ATTRIBUTES.has(name) || ARIA_ATTRIBUTE.test(name)) return ` ${name}="${escapeAttribute(value)}"`
    return null
  }

  /** Refuses active content in an attribute; the attribute is not kept. */
  function refused(detail: string): null {
    refuse('image-svg-active-content', detail)
    return null
  }

  function hrefOf(attribute: Attr, element: string, shown: string): string | null {
    const value = attribute.value.trim()
    const local = LOCAL_REFERENCE.test(value)
    const allowed = element === 'image' ? DATA_IMAGE.test(value) : local
    if (!allowed) {
      const why =
        element === 'image' ? 'an image must be inline data:image/png, jpeg or gif in base64' : 'links and references must point inside the badge (#id)'
      return refused(`The SVG holds ${shown}: ${why}.`)
    }
    if (element !== 'image' && !LOCAL_HREF_ELEMENTS.has(element)) return null
    if (attribute.namespaceURI === XLINK_NS) {
      state.usesXlink = true
      return ` xlink:href="${escapeAttribute(value)}"`
    }
    return ` href="${escapeAttribute(value)}"`
  }

  return {
    element,
    get finding() {
      return state.finding
    },
  }
}

function activeReason(name: string): string {
  const lower = name.toLowerCase()
  if (lower === 'script' || lower === 'handler' || lower === 'listener') return 'scripts run where the badge is opened'
  if (lower === 'style' || lower === 'link')
    return 'style sheets can load other files and restyle a page that shows the badge; use presentation attributes (fill="…") or style="…" instead'
  if (lower.startsWith('anim') || lower === 'set' || lower === 'discard' || lower === 'mpath')
    return 'animations can rewrite links and attributes; badge designs are still images'
  if (lower === 'a') return 'links navigate away when clicked; badge designs are images'
  return 'it embeds or loads another document or resource'
}

function escapeText(text: string): string {
  return text.replace(INVALID_XML_CHARS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;')
}

function escapeAttribute(value: string): string {
  return value
    .replace(INVALID_XML_CHARS, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
}

/**
 * A stored badge design as baked into a recipient's file: sanitised again, since rows stored before
 * this sanitiser passed only a deny-list, or `null` when it no longer reads as SVG at all (the caller
 * then bakes the default badge: the recipient still gets a file, and it carries nothing active).
 */
export function storedBadgeSvg(bytes: Uint8Array): string | null {
  const result = sanitizeSvg(bytes, 'stored')
  return result.ok ? result.svg : null
}

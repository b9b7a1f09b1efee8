import { escapeHtml } from '../util/escape-html.ts'
import { encodePng } from '../files/encode-png.ts'
import { DEFAULT_LAYOUT } from './design.ts'

/**
 * The default badge: what a template without a badge design looks like as a file, so that no club has
 * to draw one first. A disc in the default primary colour with a white ring and a star. The SVG adds the
 * template's initials and the club's name as text; the PNG is drawn here pixel by pixel (no font
 * rasterizer without a native module), so it carries the emblem only. Neither holds anything active.
 */
export interface DefaultBadgeInput {
  /** The template name as issued: its initials go in the middle of the SVG. */
  templateName: string
  /** The issuing club's name, along the bottom of the SVG. */
  clubName: string
  /** `#rrggbb`; default: the default certificate layout's primary colour. */
  color?: string
}

/** Side of the default badge, in pixels (PNG) and user units (SVG). */
export const DEFAULT_BADGE_SIZE = 256

const CENTER = DEFAULT_BADGE_SIZE / 2
const DISC_RADIUS = 120
const RING = { radius: 104, width: 4 }

/** The default badge as SVG (UTF-8 text): disc, ring, a small star, initials and the club name. */
export function defaultBadgeSvg({ templateName, clubName, color = DEFAULT_LAYOUT.primaryColor }: DefaultBadgeInput): string {
  const initials = initialsOf(templateName)
  const club = truncate(clubName.trim(), 22)
  const star = starPoints(CENTER, 58, 14, 6)
    .map(([x, y]) => `${round(x)},${round(y)}`)
    .join(' ')
  const fontSize = initials.length > 1 ? 64 : 84
  const family = "Pretendard, 'Apple SD Gothic Neo', 'Noto Sans KR', 'Malgun Gothic', sans-serif"
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${DEFAULT_BADGE_SIZE}" height="${DEFAULT_BADGE_SIZE}" viewBox="0 0 ${DEFAULT_BADGE_SIZE} ${DEFAULT_BADGE_SIZE}" role="img" aria-label="${escapeHtml(templateName)}">` +
    `<title>${escapeHtml(templateName)}</title>` +
    `<circle cx="${CENTER}" cy="${CENTER}" r="${DISC_RADIUS}" fill="${safeColor(color)}"/>` +
    `<circle cx="${CENTER}" cy="${CENTER}" r="${RING.radius}" fill="none" stroke="#ffffff" stroke-width="${RING.width}"/>` +
    `<polygon points="${star}" fill="#ffffff"/>` +
    `<text x="${CENTER}" y="${CENTER + fontSize * 0.36}" text-anchor="middle" font-family="${escapeHtml(family)}" font-weight="700" font-size="${fontSize}" fill="#ffffff">${escapeHtml(initials)}</text>` +
    (club
      ? `<text x="${CENTER}" y="${CENTER + 72}" text-anchor="middle" font-family="${escapeHtml(family)}" font-size="14" fill="#ffffff">${escapeHtml(club)}</text>`
      : '') +
    `</svg>`
  )
}

/** Default badges drawn so far, by colour: a handful in practice (one per certificate colour in use). */
const drawn = new Map<string, Promise<Uint8Array>>()
const DRAWN_MAX = 16

/**
 * The default badge as PNG: the same disc, ring and (larger) star, anti-aliased by 4x4 supersampling at
 * edges, encoded by `encodePng` (no native module). Drawing holds the event loop for a noticeable time, so it
 * is drawn once per colour and the same bytes are returned after that: callers MUST NOT modify them
 * (`bakePng` copies). At most `DRAWN_MAX` colours are kept, the oldest forgotten first.
 */
export function defaultBadgePng({ color = DEFAULT_LAYOUT.primaryColor }: Pick<DefaultBadgeInput, 'color'> = {}): Promise<Uint8Array> {
  const key = String(color).toLowerCase()
  let png = drawn.get(key)
  if (!png) {
    png = drawBadgePng(color)
    drawn.set(key, png)
    if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value as string)
    // A colour that cannot be drawn is not remembered.
    png.catch(() => drawn.delete(key))
  }
  return png
}

async function drawBadgePng(color: string): Promise<Uint8Array> {
  const size = DEFAULT_BADGE_SIZE
  const fill = parseColor(color)
  const white: Rgba = [255, 255, 255, 255]
  const clear: Rgba = [0, 0, 0, 0]
  const star = starPoints(CENTER, CENTER, 58, 24)
  const colorAt = (x: number, y: number): Rgba => {
    const distance = Math.hypot(x - CENTER, y - CENTER)
    if (distance > DISC_RADIUS) return clear
    if (Math.abs(distance - RING.radius) <= RING.width / 2) return white
    return insidePolygon(star, x, y) ? white : fill
  }
  const pixels = new Uint8Array(size * size * 4)
  const samples = 4
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const corners = [colorAt(x, y), colorAt(x + 1, y), colorAt(x, y + 1), colorAt(x + 1, y + 1)]
      let pixel: Rgba
      if (corners.every((corner) => corner === corners[0])) {
        pixel = corners[0]!
      } else {
        // Average premultiplied samples, then un-premultiply.
        let r = 0,
          g = 0,
          b = 0,
          a = 0
        for (let sy = 0; sy < samples; sy++) {
          for (let sx = 0; sx < samples; sx++) {
            const [cr, cg, cb, ca] = colorAt(x + (sx + 0.5) / samples, y + (sy + 0.5) / samples)
            r += cr * ca
            g += cg * ca
            b += cb * ca
            a += ca
          }
        }
        pixel = a === 0 ? clear : [Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round(a / samples ** 2)]
      }
      pixels.set(pixel, (y * size + x) * 4)
    }
  }
  return encodePng({ width: size, height: size, pixels })
}

type Rgba = [number, number, number, number]

/**
 * Up to two letters standing for the name: the first letter of each of the first two words
 * ("체스 입문" → "체입", "Chess basics" → "CB"); a single word gives its first letter, or its first two
 * syllables when it is Hangul ("체스" → "체스").
 */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
  const first = (word: string) => [...word].find((char) => /[\p{L}\p{N}]/u.test(char)) ?? ''
  if (words.length === 0) return '★'
  if (words.length === 1) {
    const letters = [...words[0]!].filter((char) => /[\p{L}\p{N}]/u.test(char))
    const hangul = letters.length > 1 && /\p{Script=Hangul}/u.test(letters[0]!) && /\p{Script=Hangul}/u.test(letters[1]!)
    return (hangul ? letters.slice(0, 2).join('') : letters[0]!).toUpperCase()
  }
  return (first(words[0]!) + first(words[1]!)).toUpperCase()
}

/** A five-pointed star, point up, centred at (`cx`, `cy`). */
function starPoints(cx: number, cy: number, outer: number, inner: number): [number, number][] {
  return Array.from({ length: 10 }, (_, i) => {
    const radius = i % 2 === 0 ? outer : inner
    const angle = -Math.PI / 2 + (i * Math.PI) / 5
    return [cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)] as [number, number]
  })
}

function insidePolygon(points: [number, number][], x: number, y: number): boolean {
  let inside = false
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!
    const [xj, yj] = points[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
  }
  return inside
}

function parseColor(color: string): Rgba {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1]
  if (!hex) throw new TypeError(`defaultBadgePng: ${color} is not #rrggbb`)
  return [parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16), 255]
}

function safeColor(color: string): string {
  return /^#[0-9a-f]{6}$/i.test(color) ? color : DEFAULT_LAYOUT.primaryColor
}

function truncate(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

const round = (value: number) => Math.round(value * 100) / 100

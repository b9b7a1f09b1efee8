/** Root attributes the card sets itself: where the badge goes and how it scales. */
const PLACEMENT = new Set(['x', 'y', 'width', 'height', 'preserveAspectRatio'])

/**
 * A badge SVG (sanitised: the root first, attributes double-quoted, `>` escaped inside them) as a nested
 * `<svg>` in the box `x, y, side`, scaled to fit. Nested rather than an `<image>` of a `data:` URI
 * because resvg draws the text of an image's SVG without the card's fonts (the built-in badge's
 * initials vanished); nested, a badge's text is set in Pretendard like the rest of the card. A root
 * without `viewBox` gets one from its width and height, so that it scales as a browser scales it.
 */
export function nestSvg(svg: string, { x, y, side }: { x: number; y: number; side: number }): string | null {
  const root = /^\s*<svg\b([^>]*?)(\/?)>/.exec(svg)
  if (!root) return null
  const attributes = [...root[1]!.matchAll(/\s([^\s=]+)="([^"]*)"/g)].map(([, name, value]) => [name!, value!] as const)
  const named = new Map(attributes)
  const kept = attributes.filter(([name]) => !PLACEMENT.has(name))
  if (!named.has('viewBox')) {
    const [width, height] = [length(named.get('width')), length(named.get('height'))]
    if (width && height) kept.push(['viewBox', `0 0 ${width} ${height}`])
  }
  const open = `<svg${kept.map(([name, value]) => ` ${name}="${value}"`).join('')} x="${x}" y="${y}" width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet"${root[2]}>`
  return open + svg.slice(root.index + root[0].length)
}

/** A width or height in user units (`64`, `64px`), or `null` for a percentage, another unit or none. */
function length(value: string | undefined): number | null {
  const match = value ? /^\s*(\d+(?:\.\d+)?)(?:px)?\s*$/.exec(value) : null
  return match ? Number(match[1]) : null
}

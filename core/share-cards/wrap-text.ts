/**
 * Breaks `text` into at most `maxLines` lines that fit `width` at `fontSize`, by estimated advance widths
 * (no font metrics in core): Hangul, CJK and other wide characters one em, capitals and most Latin
 * about 0.62 em, narrow marks less. The estimate errs wide, so a line never overflows the card. Breaks
 * at spaces where it can (Korean titles space their words), inside a word when one word is wider than a
 * line; the last line ends in `…` when text is left over.
 */
export function wrapText(text: string, { width, fontSize, maxLines }: { width: number; fontSize: number; maxLines: number }): string[] {
  const limit = width / fontSize
  const lines: string[] = []
  let line = ''
  const push = () => {
    lines.push(line)
    line = ''
  }
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    const candidate = line ? `${line} ${word}` : word
    if (ems(candidate) <= limit) {
      line = candidate
      continue
    }
    if (line) push()
    for (const char of word) {
      if (line && ems(line + char) > limit) push()
      line += char
    }
  }
  if (line) push()
  if (lines.length <= maxLines) return lines
  const kept = lines.slice(0, maxLines)
  let last = kept[maxLines - 1]!
  while (last && ems(`${last}…`) > limit) last = Array.from(last).slice(0, -1).join('')
  kept[maxLines - 1] = `${last.trimEnd()}…`
  return kept
}

/** The estimated advance of `text`, in ems. */
export function ems(text: string): number {
  let total = 0
  for (const char of text) total += advance(char)
  return total
}

function advance(char: string): number {
  const code = char.codePointAt(0)!
  if (code === 0x20) return 0.28
  if (code < 0x80) return /[ilj.,:;'|!()[\]{}]/.test(char) ? 0.32 : /[A-Z0-9mwMW]/.test(char) ? 0.72 : 0.6
  if (code < 0x1100) return 0.7
  return 1
}

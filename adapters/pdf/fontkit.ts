import { create } from 'fontkit'
import type { PDFDocument } from 'pdf-lib'

/** What `PDFDocument.registerFontkit` takes (pdf-lib does not export the type by name). */
export type PdfFontkit = Parameters<PDFDocument['registerFontkit']>[0]

interface UpstreamSubset {
  encode(): Uint8Array
  encodeStream?: () => unknown
}

interface UpstreamFont {
  createSubset(): UpstreamSubset
  layout(text: string, features?: unknown): unknown
}

/** Laid-out strings kept per parsed font; the cache starts over when it is full. */
const LAYOUT_CACHE_SIZE = 4096

/**
 * Upstream fontkit 2 (foliojs/fontkit), shaped for pdf-lib. pdf-lib's own fork, `@pdf-lib/fontkit` 1.1.1
 * (unmaintained since 2020), writes broken subsets: TrueType glyphs go blank (a short `loca` table
 * without padding, fixed upstream in fontkit 1.8) and CFF subsets are rejected whole ("Not a CFF Font"),
 * so Hangul came out as empty space in poppler. Upstream subsets correctly; the one gap is that pdf-lib
 * reads a subset through `encodeStream()` (a Node stream in fontkit 1) where fontkit 2 has `encode()`,
 * so each subset gets a small one-shot `encodeStream`.
 *
 * Parsed fonts are cached per byte array: parsing a 2.7 MB font costs more than laying out a page, and a
 * parsed font is only read afterwards (each document makes its own subset). So are laid-out strings:
 * pdf-lib lays a string out once to measure it and again to draw it, and labels repeat on every page;
 * it only reads the glyph runs it gets, so sharing them is safe.
 */
export function createPdfFontkit(): PdfFontkit {
  const parsed = new WeakMap<Uint8Array, UpstreamFont>()
  return {
    create(bytes: Uint8Array) {
      let font = parsed.get(bytes)
      if (!font) {
        font = adaptForPdfLib(create(bytes) as UpstreamFont)
        parsed.set(bytes, font)
      }
      return font as unknown as ReturnType<PdfFontkit['create']>
    },
  }
}

function adaptForPdfLib(font: UpstreamFont): UpstreamFont {
  const layout = font.layout.bind(font)
  const laidOut = new Map<string, unknown>()
  font.layout = (text: string, features?: unknown) => {
    const key = `${JSON.stringify(features ?? null)}\u0000${text}`
    let run = laidOut.get(key)
    if (run === undefined) {
      if (laidOut.size >= LAYOUT_CACHE_SIZE) laidOut.clear()
      run = layout(text, features)
      laidOut.set(key, run)
    }
    return run
  }
  const createSubset = font.createSubset.bind(font)
  font.createSubset = () => {
    const subset = createSubset()
    subset.encodeStream = () => oneShotStream(() => subset.encode())
    return subset
  }
  return font
}

type Listener = (value?: unknown) => void

/** The `on('data' | 'end' | 'error')` surface pdf-lib listens to, emitting one chunk after the listeners attach. */
function oneShotStream(produce: () => Uint8Array) {
  const listeners = new Map<string, Listener>()
  const stream = {
    on(event: string, listener: Listener) {
      listeners.set(event, listener)
      return stream
    },
  }
  queueMicrotask(() => {
    let bytes: Uint8Array
    try {
      bytes = produce()
    } catch (error) {
      listeners.get('error')?.(error)
      return
    }
    listeners.get('data')?.(bytes)
    listeners.get('end')?.()
  })
  return stream
}

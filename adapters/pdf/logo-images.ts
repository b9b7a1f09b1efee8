import { PDFContext, PDFName, PngEmbedder, degrees, drawImage, type PDFDocument, type PDFPage, type PDFRawStream } from 'pdf-lib'
import type { StoredImage } from '../../core/designs/design.ts'

/** A logo decoded and compressed once: its image XObject and soft mask, ready to copy into a document. */
interface PreparedLogo {
  width: number
  height: number
  image: PDFRawStream
  mask: PDFRawStream | null
}

/**
 * The logos of certificate designs, prepared once per image. pdf-lib's `embedPng` decodes the PNG, splits
 * off its alpha channel and deflates both for every document, hundreds of milliseconds of the event loop
 * for a 1024-pixel logo, and every certificate of a club carries the same logo. So each logo (by content
 * hash) is embedded once into a scratch document, and each certificate gets a copy of the two compressed
 * streams. At most `max` logos are kept, the oldest forgotten first.
 */
export function createLogoImages({ max = 32 }: { max?: number } = {}) {
  const prepared = new Map<string, Promise<PreparedLogo>>()

  function prepare(logo: StoredImage): Promise<PreparedLogo> {
    let ready = prepared.get(logo.hash)
    if (!ready) {
      ready = (async () => {
        const scratch = PDFContext.create()
        const embedder = await PngEmbedder.for(logo.bytes)
        const image = scratch.lookup(await embedder.embedIntoContext(scratch)) as PDFRawStream
        const maskRef = image.dict.get(PDFName.of('SMask'))
        const mask = maskRef ? (scratch.lookup(maskRef) as PDFRawStream) : null
        return { width: embedder.width, height: embedder.height, image, mask }
      })()
      prepared.set(logo.hash, ready)
      if (prepared.size > max) prepared.delete(prepared.keys().next().value as string)
      ready.catch(() => prepared.delete(logo.hash))
    }
    return ready
  }

  return {
    /** Draws the logo on the page, scaled to fit `box` (never enlarged), its top left at (`x`, `top`). */
    async draw(doc: PDFDocument, page: PDFPage, logo: StoredImage, at: { x: number; top: number; box: number }): Promise<void> {
      const { width, height, image, mask } = await prepare(logo)
      const context = doc.context
      const copy = image.clone(context)
      if (mask) copy.dict.set(PDFName.of('SMask'), context.register(mask.clone(context)))
      const name = page.node.newXObject('Image', context.register(copy))
      const scale = Math.min(at.box / width, at.box / height, 1)
      page.pushOperators(
        ...drawImage(name, {
          x: at.x,
          y: at.top - height * scale,
          width: width * scale,
          height: height * scale,
          rotate: degrees(0),
          xSkew: degrees(0),
          ySkew: degrees(0),
        }),
      )
    },
  }
}

export type LogoImages = ReturnType<typeof createLogoImages>

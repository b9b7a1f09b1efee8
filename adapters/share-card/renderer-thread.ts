import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js'
import { serveTasks } from '../node/threads/serve.ts'

/** A card to draw (renderer.ts): the SVG, and resvg's options (Pretendard's files, no system fonts). */
export interface CardTask {
  svg: string
  options: ResvgRenderOptions
}

/** The whole card: fonts, layout, drawing and the PNG encoding. */
serveTasks(async ({ svg, options }: CardTask): Promise<Uint8Array> => {
  const png = new Resvg(svg, options).render().asPng()
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
})

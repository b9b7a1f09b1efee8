/**
 * Rasterizes share cards (the `og:image` of a share page, docs/share-card.md): core composes the card as
 * an SVG of `SHARE_CARD_SIZE` with every image inline as a `data:` URI and every text in
 * `SHARE_CARD_FONT_FAMILY`; the renderer only turns it into a PNG (`createShareCardRenderer()` from
 * `clubcred/share-card` on Node, `createWasmShareCardRenderer()` on Deno, both resvg).
 *
 * - `renderPng` MUST resolve to a PNG of the SVG's own width and height and MUST reject (never resolve to
 *   partial bytes) when it cannot render.
 * - It MUST draw text in a face of `SHARE_CARD_FONT_FAMILY` that has the Hangul glyphs (Pretendard, the
 *   PDF's font), and MUST NOT load system fonts or anything from the network or the file system that
 *   the SVG names.
 * - It MUST be deterministic (the card's strong `ETag` is computed from its inputs without rendering)
 *   and MUST NOT hold the event loop for more than a few milliseconds: the drawing runs off the main
 *   thread (docs/decisions/0043-share-card.md).
 * - Calls MAY run concurrently; core bounds how many at once.
 */
export interface ShareCardRenderer {
  renderPng(svg: string): Promise<Uint8Array>
  /** Stops the threads the renderer started, if any. */
  close?(): Promise<void>
}

/** The size Open Graph and X's `summary_large_image` expect: 1.91:1. */
export const SHARE_CARD_SIZE = { width: 1200, height: 630 } as const

/** The only font family a card names: the renderer loads this family's faces and no other. */
export const SHARE_CARD_FONT_FAMILY = 'Pretendard'

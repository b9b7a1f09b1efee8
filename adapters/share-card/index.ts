/**
 * @module clubcred/share-card: share cards, the 1200×630 PNG a shared share page shows (docs/share-card.md),
 * drawn by resvg in the PDF's Korean font. Pass the renderer to `createIssuer` as `shareCards`; without
 * it share pages carry no `og:image`. On Node, `createShareCardRenderer()` (N-API resvg, drawn on
 * libuv's threads); on Deno, which runs clubcred without FFI, `createWasmShareCardRenderer()` (resvg's
 * WebAssembly build in a Web Worker).
 *
 * @example
 * import { createIssuer } from 'clubcred'
 * import { createShareCardRenderer } from 'clubcred/share-card'
 * const issuer = createIssuer({ storage, masterKey, urls, shareCards: createShareCardRenderer() })
 */
export { createShareCardRenderer } from './renderer.ts'
export { createWasmShareCardRenderer } from './wasm-renderer.ts'

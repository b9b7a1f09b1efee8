import { fileURLToPath } from 'node:url'
import { SHARE_CARD_FONT_FAMILY } from '../../core/ports/share-card-renderer.ts'
import type { ShareCardRenderer } from '../../core/ports/share-card-renderer.ts'
import { PRETENDARD_FACES } from './fonts.ts'
import { createThreadPool, ThreadTaskError, type ThreadPool } from '../node/threads/pool.ts'
import type { CardTask } from './renderer-thread.ts'

/**
 * The share card renderer on Node: resvg (`@resvg/resvg-js`, a maintained Rust SVG renderer shipped as
 * prebuilt N-API binaries in its npm packages) in one worker thread, started on the first card. The
 * whole card (fonts, layout, drawing and the PNG encoding) is done there: resvg's own `renderAsync`
 * draws on libuv's pool but encodes the PNG on the calling thread, 30 to 60 ms of the event loop a
 * card (bench/share-card.bench.ts). Only Pretendard is loaded, never the system's fonts: the card
 * looks the same on every host.
 */
export function createShareCardRenderer(): ShareCardRenderer {
  const options: CardTask['options'] = {
    font: {
      loadSystemFonts: false,
      fontFiles: PRETENDARD_FACES.map((face) => fileURLToPath(face)),
      defaultFontFamily: SHARE_CARD_FONT_FAMILY,
      sansSerifFamily: SHARE_CARD_FONT_FAMILY,
    },
    fitTo: { mode: 'original' },
    logLevel: 'off',
  }
  // The Node adapters' one pool (adapters/node/threads/pool.ts): one thread, started on the first card,
  // replaced when it dies (the card it drew fails), idle it keeps no process alive.
  const thread = new URL(`./renderer-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
  let pool: ThreadPool<CardTask, Uint8Array> | null = null
  return {
    async renderPng(svg) {
      pool ??= createThreadPool<CardTask, Uint8Array>({ thread, size: 1, name: 'share card rendering failed' })
      try {
        return await pool.run({ svg, options })
      } catch (error) {
        if (error instanceof ThreadTaskError && error.reason === 'closed') throw new Error('share card renderer closed', { cause: error })
        throw error
      }
    },
    async close() {
      // As before the pool: a card asked for after the close starts a fresh thread.
      const closing = pool
      pool = null
      await closing?.close()
    },
  }
}

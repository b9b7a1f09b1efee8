import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { SHARE_CARD_FONT_FAMILY } from '../../core/ports/share-card-renderer.ts'
import type { ShareCardRenderer } from '../../core/ports/share-card-renderer.ts'
import { PRETENDARD_FACES } from './fonts.ts'

/**
 * The share card renderer on Node: resvg (`@resvg/resvg-js`, a maintained Rust SVG renderer shipped as
 * prebuilt N-API binaries in its npm packages) in one worker thread, started on the first card. The
 * whole card (fonts, layout, drawing and the PNG encoding) is done there: resvg's own `renderAsync`
 * draws on libuv's pool but encodes the PNG on the calling thread, 30 to 60 ms of the event loop a
 * card (bench/share-card.bench.ts). Only Pretendard is loaded, never the system's fonts: the card
 * looks the same on every host.
 */
export function createShareCardRenderer(): ShareCardRenderer {
  let worker: Worker | null = null
  let inFlight = 0
  let nextId = 0
  const pending = new Map<number, { resolve: (png: Uint8Array) => void; reject: (error: Error) => void }>()

  function start(): Worker {
    const workerData = {
      resvg: import.meta.resolve('@resvg/resvg-js'),
      options: {
        font: {
          loadSystemFonts: false,
          fontFiles: PRETENDARD_FACES.map((face) => fileURLToPath(face)),
          defaultFontFamily: SHARE_CARD_FONT_FAMILY,
          sansSerifFamily: SHARE_CARD_FONT_FAMILY,
        },
        fitTo: { mode: 'original' },
        logLevel: 'off',
      },
    }
    // No inherited execArgv: a loader such as tsx would keep the thread, and so the process, alive.
    const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData })
    started.on('message', ({ id, png, error }: { id: number; png?: Uint8Array; error?: string }) => {
      // Idle, the thread never keeps a process alive; with a card in flight it does, for whoever awaits it.
      if (--inFlight === 0) started.unref()
      const call = pending.get(id)
      pending.delete(id)
      if (png) call?.resolve(png)
      else call?.reject(new Error(`share card rendering failed: ${error}`))
    })
    // A thread that died takes its cards with it; the next card starts a fresh one.
    started.on('error', (error) => {
      for (const call of pending.values()) call.reject(error)
      pending.clear()
      inFlight = 0
      if (worker === started) worker = null
    })
    started.unref()
    return started
  }

  return {
    renderPng(svg) {
      const thread = (worker ??= start())
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        if (inFlight++ === 0) thread.ref()
        thread.postMessage({ id, svg })
      })
    },
    async close() {
      const stopping = worker
      worker = null
      await stopping?.terminate()
      for (const call of pending.values()) call.reject(new Error('share card renderer closed'))
      pending.clear()
    },
  }
}

/** The thread: plain CommonJS from a string (no loader, no file of its own), resvg loaded by its resolved URL. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { fileURLToPath } = require('node:url')
const { Resvg } = require(fileURLToPath(workerData.resvg))
parentPort.on('message', ({ id, svg }) => {
  try {
    const png = new Resvg(svg, workerData.options).render().asPng()
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength)
    parentPort.postMessage({ id, png: bytes }, [png.buffer])
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) })
  }
})
`

import type { ShareCardRenderer } from '../../core/ports/share-card-renderer.ts'

/** The part of the Web Worker API this renderer uses (Deno's global `Worker`; not in Node's types). */
interface WebWorker {
  onmessage: ((event: { data: Answer }) => void) | null
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null
  postMessage(message: unknown): void
  terminate(): void
}
type WebWorkerConstructor = new (url: string, options: { type: 'module' }) => WebWorker
type Answer = { id: number; png: Uint8Array } | { id: number; error: string }

/**
 * The share card renderer on Deno: resvg's WebAssembly build (`@resvg/resvg-wasm`, the same resvg as
 * `createShareCardRenderer`) in one Web Worker, started on the first card. Deno runs clubcred without
 * FFI (`--deny-ffi`), so the N-API build cannot load there; and the wasm build draws on the thread that
 * calls it (about 50 ms a card), so that thread is the worker's, not the event loop's. Cards queue in
 * the worker one after the other; core bounds how many wait.
 */
export function createWasmShareCardRenderer(): ShareCardRenderer {
  let worker: WebWorker | null = null
  let nextId = 0
  const pending = new Map<number, { resolve: (png: Uint8Array) => void; reject: (error: Error) => void }>()

  function start(): WebWorker {
    const Worker = (globalThis as unknown as { Worker?: WebWorkerConstructor }).Worker
    if (!Worker) throw new TypeError('createWasmShareCardRenderer needs Web Workers (Deno); on Node use createShareCardRenderer')
    const started = new Worker(new URL('./wasm-worker.ts', import.meta.url).href, { type: 'module' })
    started.onmessage = ({ data }) => {
      const call = pending.get(data.id)
      pending.delete(data.id)
      if ('png' in data) call?.resolve(data.png)
      else call?.reject(new Error(`share card rendering failed: ${data.error}`))
    }
    // A worker that died takes its cards with it; the next card starts a fresh one.
    started.onerror = (event) => {
      event.preventDefault()
      for (const call of pending.values()) call.reject(new Error(`share card worker failed: ${event.message}`))
      pending.clear()
      started.terminate()
      worker = null
    }
    return started
  }

  return {
    renderPng(svg) {
      worker ??= start()
      const id = nextId++
      const sent = worker
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        sent.postMessage({ id, svg })
      })
    },
    async close() {
      worker?.terminate()
      worker = null
      for (const call of pending.values()) call.reject(new Error('share card renderer closed'))
      pending.clear()
    },
  }
}

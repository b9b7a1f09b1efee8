import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { DataIntegritySigner, DocumentLoader, ProofRequest } from '../../core/ports/data-integrity-signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'
import { createEddsaRdfc2022, type ProofPath, type Proved } from './data-integrity/eddsa-rdfc-2022.ts'
import { shapesTrustedBy } from './data-integrity/trusted-contexts.ts'

export interface DataIntegritySignerOptions {
  /**
   * Worker threads that make the proofs. A round of proofs is tens of milliseconds of CPU
   * (docs/data-integrity.md § Cost), which on the calling thread would stall every request its event
   * loop serves; `0` makes them there all the same (benchmarks, scripts). Default: one per core beyond the
   * first, and at least one (a thread on every core measured worse for JWTs and proofs alike: docs/benchmarks.md).
   */
  threads?: number
  /**
   * Proofs per hand-over to a thread: a thread takes the next chunk when it is done with one, so that a
   * call made meanwhile (another club's round) waits for one chunk, not for a whole round.
   */
  chunkSize?: number
  /**
   * Runs the threads at a lower scheduling priority (nice +10, where the system allows it; Linux), so that
   * they take the CPU time that JWT signing and requests leave: a proof can trail its JWT, not delay one.
   */
  background?: boolean
  /**
   * Told how many proofs each call made by each path (docs/data-integrity.md § Cost): `fast`, or
   * `reference` where the fast path was not sure of a credential (the metric
   * `clubcred_data_integrity_proofs_total`). Called on the calling thread, once per path per call.
   */
  onProofs?: (path: ProofPath, count: number) => void
}

/**
 * The `eddsa-rdfc-2022` signer (docs/data-integrity.md § Libraries): clubcred's credentials and status
 * lists by the fast path, which writes their quads from their shape and makes the same bytes as Digital
 * Bazaar's libraries; anything else by those libraries (jsonld-signatures, @digitalbazaar/data-integrity,
 * the cryptosuite's RDFC-1.0 in safe mode), as before (data-integrity/eddsa-rdfc-2022.ts). The Ed25519
 * signature itself is WebCrypto's, as on every runtime. Hashing is node:crypto's, which Deno provides too;
 * the worker threads run through node:worker_threads on both (docs/data-integrity.md § Signing).
 *
 * @example
 * const [secured] = await createDataIntegritySigner().signMany(key, `${did}#${key.kid}`, [{ credential, created }], contextLoader)
 */
export function createDataIntegritySigner({
  threads = Math.max(1, availableParallelism() - 1),
  chunkSize = 8,
  background = true,
  onProofs,
}: DataIntegritySignerOptions = {}): DataIntegritySigner & { close(): Promise<void> } {
  // Started on first use: a process that never proves (the admin CLI) starts no threads.
  let pool: ReturnType<typeof createPool> | null = null
  let here: ReturnType<typeof createEddsaRdfc2022> | null = null
  let closed = false
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      if (key.alg !== 'Ed25519') throw new TypeError(`eddsa-rdfc-2022 signs with an Ed25519 key, not ${key.alg}`)
      if (requests.length === 0) return []
      const trusted = await shapesTrustedBy(documentLoader)
      if (closed) throw new Error('the Data Integrity signer is closed')
      const proved =
        threads === 0
          ? await (here ??= createEddsaRdfc2022()).sign(key.privateKey, verificationMethod, requests, documentLoader, trusted)
          : await (pool ??= createPool(threads, background)).sign(key, verificationMethod, requests, documentLoader, trusted, chunkSize)
      if (onProofs) {
        for (const path of ['fast', 'reference'] as const) {
          const count = proved.filter((one) => one.path === path).length
          if (count > 0) onProofs(path, count)
        }
      }
      return proved.map((one) => one.secured)
    },
    async close() {
      closed = true
      await pool?.close()
    },
  }
}

/**
 * The thread: plain CommonJS evaluated from a string, as the JWT signer's, so that it needs no loader
 * or file of its own. It signs with the same module as the calling thread (data-integrity/eddsa-rdfc-2022,
 * a test checks that both make the same proofs), imported from the URL the main thread resolved: the
 * compiled `.js` as it is; the `.ts` source under tsx through tsx's `tsImport` (a `.ts` file does not load
 * in a thread otherwise, and tsx's loader passed on by execArgv would keep the thread, and so the process,
 * alive); on Deno natively. The key is imported from its JWK; contexts are loaded by asking the main
 * thread, whose document loader the call gave: a context the loader marks `static` is asked for once per
 * thread, after which jsonld keeps it resolved.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
if (workerData.background) {
  try {
    // This thread alone: on Linux a thread's id is a process id to setpriority.
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
    require('node:os').setPriority(tid, 10)
  } catch {}
}
const suite = (workerData.tsx ? import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.module, workerData.module)) : import(workerData.module)).then(
  (module) => module.createEddsaRdfc2022(),
)
// A module that does not load fails each chunk (in sign), not the thread.
suite.catch(() => {})
const keys = new Map()
const loads = new Map()
let nextLoad = 0
function loaderOf(call) {
  return (url) => new Promise((resolve, reject) => {
    const load = nextLoad++
    loads.set(load, { resolve, reject })
    parentPort.postMessage({ type: 'load', call, load, url })
  })
}
async function sign({ call, kid, jwk, verificationMethod, requests, trusted }) {
  // By kid and public key: a key given under a kid seen before with another key is that other key.
  const cached = kid + ' ' + jwk.x
  let privateKey = keys.get(cached)
  if (!privateKey) {
    if (keys.size >= 1000) keys.clear()
    privateKey = await crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, ['sign'])
    keys.set(cached, privateKey)
  }
  return (await suite).sign(privateKey, verificationMethod, requests, loaderOf(call), trusted)
}
// The message of an error and of its causes: jsonld wraps the document loader's error (in details.cause), which names the URL.
function causes(error) {
  const messages = []
  for (let e = error; e; e = e.cause || (e.details && e.details.cause)) messages.push(String(e.message || e))
  return messages.join(': ')
}
parentPort.on('message', (message) => {
  if (message.type === 'loaded') {
    const waiting = loads.get(message.load)
    loads.delete(message.load)
    if (message.error !== undefined) waiting.reject(new Error(message.error))
    else waiting.resolve(message.document)
    return
  }
  sign(message).then(
    (proved) => parentPort.postMessage({ type: 'signed', chunk: message.chunk, proved }),
    (error) => parentPort.postMessage({ type: 'signed', chunk: message.chunk, error: causes(error) }),
  )
})
`

/**
 * What the thread imports: the module the calling thread signs with, beside this file (`.ts` in the source,
 * `.js` once compiled), and under tsx on Node the API that loads a `.ts` file.
 */
function threadModules(): { module: string; tsx: string | null } {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
  const module = new URL(`./data-integrity/eddsa-rdfc-2022${extension}`, import.meta.url).href
  return { module, tsx: extension === '.ts' && !('Deno' in globalThis) ? import.meta.resolve('tsx/esm/api') : null }
}

interface Chunk {
  id: number
  call: number
  message: Record<string, unknown>
  resolve: (proved: Proved[]) => void
  reject: (error: Error) => void
}

function createPool(size: number, background: boolean) {
  const modules = threadModules()
  /** Chunks not yet handed to a thread, oldest first. */
  const queue: Chunk[] = []
  /** The document loader of each call with chunks in flight, by call id. */
  const loaders = new Map<number, DocumentLoader>()
  let nextChunk = 0
  let nextCall = 0

  interface Slot {
    worker: Worker
    /** The chunk this thread signs: one at a time, so that the queue decides what comes next. */
    current: Chunk | null
  }
  const slots: Slot[] = []
  for (let i = 0; i < size; i++) slots.push(startThread())

  function startThread(): Slot {
    // No inherited execArgv: a loader such as tsx would keep the thread, and so the process, alive.
    const worker = new Worker(THREAD_SOURCE, { eval: true, execArgv: [], workerData: { ...modules, background } })
    const slot: Slot = { worker, current: null }
    worker.on('message', (message: ThreadMessage) => {
      if (message.type === 'load') {
        void answerLoad(worker, message)
        return
      }
      const chunk = slot.current
      slot.current = null
      if (chunk?.id === message.chunk) {
        if (message.error !== undefined) chunk.reject(new Error(`Data Integrity signing thread: ${message.error}`))
        else chunk.resolve(message.proved!)
      }
      dispatch()
    })
    worker.on('error', (error) => {
      // A thread that died takes its chunk with it; a fresh one takes its place for the next.
      slot.current?.reject(error)
      slot.current = null
      void worker.terminate()
      slots[slots.indexOf(slot)] = startThread()
      dispatch()
    })
    // Idle threads never keep a process alive; a thread with a chunk is ref'd while it signs.
    worker.unref()
    return slot
  }

  async function answerLoad(worker: Worker, { call, load, url }: { call: number; load: number; url: string }) {
    const loader = loaders.get(call)
    try {
      if (!loader) throw new Error(`no document loader for ${url}: its call has ended`)
      const { contextUrl, documentUrl, document, tag } = await loader(url)
      worker.postMessage({ type: 'loaded', load, document: { contextUrl, documentUrl, document, ...(tag ? { tag } : {}) } })
    } catch (error) {
      worker.postMessage({ type: 'loaded', load, error: error instanceof Error ? error.message : String(error) })
    }
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.current) continue
      const chunk = queue.shift()
      if (!chunk) break
      slot.current = chunk
      slot.worker.ref()
      slot.worker.postMessage(chunk.message)
    }
    for (const slot of slots) if (!slot.current) slot.worker.unref()
  }

  return {
    /** Splits the requests into chunks, signed by whichever thread is free first; resolves in request order. */
    async sign(
      key: SigningKey,
      verificationMethod: string,
      requests: ProofRequest[],
      documentLoader: DocumentLoader,
      trusted: readonly string[],
      chunkSize: number,
    ): Promise<Proved[]> {
      const call = nextCall++
      loaders.set(call, documentLoader)
      try {
        const parts: Promise<Proved[]>[] = []
        for (let from = 0; from < requests.length; from += chunkSize) {
          const id = nextChunk++
          const message = {
            type: 'sign',
            chunk: id,
            call,
            kid: key.kid,
            jwk: key.privateJwk,
            verificationMethod,
            requests: requests.slice(from, from + chunkSize),
            trusted,
          }
          parts.push(new Promise((resolve, reject) => queue.push({ id, call, message, resolve, reject })))
        }
        dispatch()
        const settled = await Promise.allSettled(parts)
        const failed = settled.find((part) => part.status === 'rejected')
        if (failed) throw failed.reason
        return settled.flatMap((part) => (part.status === 'fulfilled' ? part.value : []))
      } finally {
        loaders.delete(call)
      }
    },
    async close() {
      const closed = new Error('the Data Integrity signer is closed')
      for (const chunk of queue.splice(0)) chunk.reject(closed)
      for (const slot of slots) slot.current?.reject(closed)
      await Promise.all(slots.map((slot) => slot.worker.terminate()))
    },
  }
}

type ThreadMessage = { type: 'load'; call: number; load: number; url: string } | { type: 'signed'; chunk: number; proved?: Proved[]; error?: string }

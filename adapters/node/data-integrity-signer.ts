import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { DataIntegrityProof, type DataIntegritySigningKey } from '@digitalbazaar/data-integrity'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import jsigs from 'jsonld-signatures'
import type { DataIntegritySigner, DocumentLoader, ProofRequest } from '../../core/ports/data-integrity-signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'

export interface DataIntegritySignerOptions {
  /**
   * Worker threads that make the proofs. A proof is milliseconds of CPU (docs/data-integrity.md § Cost),
   * which on the calling thread would stall every request its event loop serves; `0` makes them there
   * all the same (benchmarks, scripts). Default: one per core beyond the first, and at least one.
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
}

/**
 * The `eddsa-rdfc-2022` signer on Digital Bazaar's libraries (docs/data-integrity.md § Libraries):
 * jsonld-signatures builds the proof, @digitalbazaar/data-integrity hashes the canonical proof options
 * and document, the cryptosuite canonicalizes with RDFC-1.0 in safe mode. The Ed25519 signature itself
 * is WebCrypto's, as on every runtime. The libraries hash with node:crypto, which Deno provides too; their
 * worker threads run through node:worker_threads on both (docs/data-integrity.md § Signing).
 *
 * @example
 * const [secured] = await createDataIntegritySigner().signMany(key, `${did}#${key.kid}`, [{ credential, created }], contextLoader)
 */
export function createDataIntegritySigner({
  threads = Math.max(1, availableParallelism() - 1),
  chunkSize = 4,
  background = true,
}: DataIntegritySignerOptions = {}): DataIntegritySigner & { close(): Promise<void> } {
  // Started on first use: a process that never proves (the admin CLI) starts no threads.
  let pool: ReturnType<typeof createPool> | null = null
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      if (key.alg !== 'Ed25519') throw new TypeError(`eddsa-rdfc-2022 signs with an Ed25519 key, not ${key.alg}`)
      if (requests.length === 0) return []
      if (threads === 0) return signHere(key, verificationMethod, requests, documentLoader)
      return (pool ??= createPool(threads, background)).sign(key, verificationMethod, requests, documentLoader, chunkSize)
    },
    async close() {
      await pool?.close()
    },
  }
}

async function signHere(key: SigningKey, verificationMethod: string, requests: ProofRequest[], documentLoader: DocumentLoader) {
  const purpose = new jsigs.purposes.AssertionProofPurpose()
  const signer = ed25519Signer(key.privateKey, verificationMethod)
  const secured: Record<string, unknown>[] = []
  // One at a time: canonicalization is CPU-bound, so interleaving would only hold more in memory.
  for (const { credential, created } of requests) {
    const suite = new DataIntegrityProof({ signer, date: created, cryptosuite })
    // A shallow copy: jsonld-signatures adds `proof` to the object it is given.
    secured.push(await jsigs.sign({ ...credential }, { suite, purpose, documentLoader }))
  }
  return secured
}

function ed25519Signer(privateKey: CryptoKey, verificationMethod: string): DataIntegritySigningKey {
  return {
    id: verificationMethod,
    algorithm: 'Ed25519',
    async sign({ data }) {
      return new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, data))
    },
  }
}

/**
 * The thread: plain CommonJS evaluated from a string, as the JWT signer's, so that it needs no loader
 * or file of its own (a .ts file would not load in a thread under tsx); it imports the libraries from
 * the URLs the main thread resolved. It signs as `signHere` does (a test checks that both make the same
 * proofs), with the key imported from its JWK, and loads contexts by asking the main thread, whose
 * document loader the call gave: a context the loader marks `static` is asked for once per thread,
 * after which jsonld keeps it resolved.
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
const libraries = Promise.all(workerData.modules.map((url) => import(url)))
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
async function sign({ call, kid, jwk, verificationMethod, requests }) {
  const [{ DataIntegrityProof }, { cryptosuite }, jsigsModule] = await libraries
  const jsigs = jsigsModule.default
  // By kid and public key: a key given under a kid seen before with another key is that other key.
  const cached = kid + ' ' + jwk.x
  let privateKey = keys.get(cached)
  if (!privateKey) {
    if (keys.size >= 1000) keys.clear()
    privateKey = await crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, ['sign'])
    keys.set(cached, privateKey)
  }
  const signer = { id: verificationMethod, algorithm: 'Ed25519', sign: async ({ data }) => new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, data)) }
  const purpose = new jsigs.purposes.AssertionProofPurpose()
  const documentLoader = loaderOf(call)
  const secured = []
  for (const { credential, created } of requests) {
    const suite = new DataIntegrityProof({ signer, date: created, cryptosuite })
    secured.push(await jsigs.sign({ ...credential }, { suite, purpose, documentLoader }))
  }
  return secured
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
    (secured) => parentPort.postMessage({ type: 'signed', chunk: message.chunk, secured }),
    (error) => parentPort.postMessage({ type: 'signed', chunk: message.chunk, error: causes(error) }),
  )
})
`

/** The libraries the thread imports, resolved here: an evaluated thread has no module of its own to resolve from. */
const THREAD_MODULES = ['@digitalbazaar/data-integrity', '@digitalbazaar/eddsa-rdfc-2022-cryptosuite', 'jsonld-signatures']

interface Chunk {
  id: number
  call: number
  message: Record<string, unknown>
  resolve: (secured: Record<string, unknown>[]) => void
  reject: (error: Error) => void
}

function createPool(size: number, background: boolean) {
  const modules = THREAD_MODULES.map((specifier) => import.meta.resolve(specifier))
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
    const worker = new Worker(THREAD_SOURCE, { eval: true, execArgv: [], workerData: { modules, background } })
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
        else chunk.resolve(message.secured!)
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
    async sign(key: SigningKey, verificationMethod: string, requests: ProofRequest[], documentLoader: DocumentLoader, chunkSize: number) {
      const call = nextCall++
      loaders.set(call, documentLoader)
      try {
        const parts: Promise<Record<string, unknown>[]>[] = []
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

type ThreadMessage =
  { type: 'load'; call: number; load: number; url: string } | { type: 'signed'; chunk: number; secured?: Record<string, unknown>[]; error?: string }

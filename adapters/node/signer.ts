import { availableParallelism } from 'node:os'
import { createPrivateKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import type { JwtSigner } from '../../core/ports/signer.ts'
import { Lru } from '../../core/util/lru.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'

export interface NodeSignerOptions {
  /**
   * Worker threads that sign beside the main thread. `0` signs on the calling thread. Default: one
   * per core beyond the first, so that a 2-core machine signs on the core the server does not use.
   */
  threads?: number
  /** Batches smaller than this are signed on the calling thread: a round trip to a worker costs more. */
  minPoolBatch?: number
}

/**
 * The fast ES256 signer for Node: cached node:crypto KeyObjects and the compact JWS built directly
 * (jose's SignJWT re-serializes and awaits WebCrypto per token, several times slower), optionally
 * spread over worker threads.
 *
 * @example
 * createIssuer({ storage, masterKey, urls, signer: createNodeSigner() })
 */
export function createNodeSigner({ threads = Math.max(0, availableParallelism() - 1), minPoolBatch = 64 }: NodeSignerOptions = {}): JwtSigner & {
  close(): Promise<void>
} {
  // Bounded like the key store's cache: one KeyObject per club in use, not per club ever signed for.
  const keyObjects = new Lru<string, KeyObject>(1000)
  // Started on first use: a process that never signs (the admin CLI) starts no threads.
  let pool: ReturnType<typeof createPool> | null = null

  function keyObjectOf(key: SigningKey): KeyObject {
    let keyObject = keyObjects.get(key.kid)
    if (!keyObject) {
      keyObject = createPrivateKey({ key: key.privateJwk as JsonWebKey, format: 'jwk' })
      keyObjects.set(key.kid, keyObject)
    }
    return keyObject
  }

  return {
    async signMany(key, header, payloads) {
      const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url')
      if (threads > 0 && payloads.length >= minPoolBatch) return (pool ??= createPool(threads)).sign(key, encodedHeader, payloads)
      const keyObject = keyObjectOf(key)
      return payloads.map((payload) => compactJws(keyObject, encodedHeader, payload))
    },
    async close() {
      await pool?.close()
    },
  }
}

/** `header.payload.signature`, base64url, ES256 with the raw `r || s` signature JWS wants. */
function compactJws(key: KeyObject, encodedHeader: string, payload: string): string {
  const input = `${encodedHeader}.${Buffer.from(payload).toString('base64url')}`
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

/**
 * The worker: plain CommonJS evaluated from a string, so that it needs no loader or file of its own.
 * It does the whole JWS (encoding too), leaving the main thread only the hand-over.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { createPrivateKey, sign } = require('node:crypto')
const keys = new Map()
parentPort.on('message', ({ id, kid, jwk, header, payloads }) => {
  try {
    let key = keys.get(kid)
    if (!key) keys.set(kid, (key = createPrivateKey({ key: jwk, format: 'jwk' })))
    const joined = typeof payloads === 'string'
    const signatures = (joined ? payloads.split('\\n') : payloads).map((payload) => {
      const input = header + '.' + Buffer.from(payload).toString('base64url')
      return input + '.' + sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')
    })
    parentPort.postMessage({ id, signatures: signatures.join('\\n') })
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) })
  }
})
`

function createPool(size: number) {
  // Idle workers are unref'd so that they never keep a process alive; a worker with work in flight is
  // ref'd so that a caller awaiting its signatures is not cut short.
  const workers = Array.from({ length: size }, () => {
    // No inherited execArgv: a loader such as tsx would keep the thread, and so the process, alive.
    const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] })
    return { worker, inFlight: 0 }
  })
  const pending = new Map<number, { resolve: (signatures: string[]) => void; reject: (error: Error) => void }>()
  let nextId = 0
  for (const slot of workers) {
    const { worker } = slot
    worker.on('message', ({ id, signatures, error }: { id: number; signatures?: string; error?: string }) => {
      if (--slot.inFlight === 0) worker.unref()
      const request = pending.get(id)
      pending.delete(id)
      if (error !== undefined) request?.reject(new Error(`signing worker: ${error}`))
      // A compact JWS is base64url and dots: a line break never occurs in one.
      else request?.resolve(signatures === '' ? [] : signatures!.split('\n'))
    })
    worker.on('error', (error) => {
      for (const request of pending.values()) request.reject(error)
      pending.clear()
    })
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref()
  }

  return {
    /** Splits the payloads evenly over the workers; resolves with the compact JWS in payload order. */
    async sign(key: SigningKey, header: string, payloads: string[]): Promise<string[]> {
      const chunk = Math.ceil(payloads.length / workers.length)
      const parts = await Promise.all(
        workers.map((slot, w) => {
          const slice = payloads.slice(w * chunk, (w + 1) * chunk)
          if (slice.length === 0) return Promise.resolve([])
          const id = nextId++
          return new Promise<string[]>((resolve, reject) => {
            pending.set(id, { resolve, reject })
            if (slot.inFlight++ === 0) slot.worker.ref()
            // One string, not an array of 1,000: cloning one string across threads is a copy, an array of
            // strings costs per item. A payload with a line break (never one of core's, which
            // are JSON.stringify output) goes as an array.
            const joinable = !slice.some((payload) => payload.includes('\n'))
            slot.worker.postMessage({ id, kid: key.kid, jwk: key.privateJwk, header, payloads: joinable ? slice.join('\n') : slice })
          })
        }),
      )
      return parts.flat()
    },
    async close() {
      await Promise.all(workers.map((slot) => slot.worker.terminate()))
    },
  }
}

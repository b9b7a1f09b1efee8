import { availableParallelism } from 'node:os'
import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto'
import type { JwtSigner } from '../../core/ports/signer.ts'
import { Lru } from '../../core/util/lru.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'
import { compactJws } from './compact-jws.ts'
import type { JwtTask } from './threads/jwt-thread.ts'
import { createThreadPool } from './threads/pool.ts'

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

function createPool(size: number) {
  // A slice is safe to sign again: a thread that died under it (its memory, say) is replaced and the slice retried once.
  const pool = createThreadPool<JwtTask, string>({ thread: 'jwt-thread', size, name: 'signing worker', retries: 1 })
  return {
    /** Splits the payloads evenly over the threads; resolves with the compact JWS in payload order. */
    async sign(key: SigningKey, header: string, payloads: string[]): Promise<string[]> {
      const chunk = Math.ceil(payloads.length / size)
      const slices: string[][] = []
      for (let from = 0; from < payloads.length; from += chunk) slices.push(payloads.slice(from, from + chunk))
      const parts = await Promise.all(
        slices.map((slice) => {
          // One string, not an array of 1,000: cloning one string across threads is a copy, an array of
          // strings costs per item. A payload with a line break (never one of core's, which are
          // JSON.stringify output) goes as an array.
          const joinable = !slice.some((payload) => payload.includes('\n'))
          return pool.run({ kid: key.kid, jwk: key.privateJwk as JsonWebKey, header, payloads: joinable ? slice.join('\n') : slice })
        }),
      )
      // A compact JWS is base64url and dots: a line break never occurs in one.
      return parts.flatMap((signatures) => (signatures === '' ? [] : signatures.split('\n')))
    },
    close: () => pool.close(),
  }
}

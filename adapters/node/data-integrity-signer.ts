import { availableParallelism } from 'node:os'
import type { DataIntegritySigner, DocumentLoader, ProofRequest } from '../../core/ports/data-integrity-signer.ts'
import type { SigningKey } from '../../core/ports/key-store.ts'
import { createEddsaRdfc2022, type ProofPath, type Proved, type ProvedJwt } from './data-integrity/eddsa-rdfc-2022.ts'
import { shapesTrustedBy } from './data-integrity/trusted-contexts.ts'
import type { LoadQuestion, ProofTask, ProvedInThread } from './threads/data-integrity-thread.ts'
import { createThreadPool } from './threads/pool.ts'

export interface DataIntegritySignerOptions {
  /**
   * Worker threads that make the proofs. A round of proofs is tens of milliseconds of CPU
   * (docs/data-integrity.md § Cost), which on the calling thread would stall every request its event
   * loop serves; `0` makes them there all the same (benchmarks, scripts). Default: one per core. Niced
   * (`background`), they take what the JWTs and the requests leave, so that the proofs use every core
   * once no JWT waits (docs/data-integrity.md § Signing). Before the threads were niced and the fast
   * path made proofs cheap, a thread on every core measured worse for JWTs and proofs alike.
   */
  threads?: number
  /**
   * Proofs per hand-over to a thread: a thread takes the next chunk when it is done with one, so that a
   * call made meanwhile (another club's round) waits for one chunk, not for a whole round. Default: 32,
   * about 5 ms of proofs: fewer hand-overs than 8 for the calling thread, still short for a call waiting.
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
  threads = availableParallelism(),
  chunkSize = 32,
  background = true,
  onProofs,
}: DataIntegritySignerOptions = {}): Required<DataIntegritySigner> {
  // Started on first use: a process that never proves (the admin CLI) starts no threads.
  let pool: ReturnType<typeof createPool> | null = null
  let here: ReturnType<typeof createEddsaRdfc2022> | null = null
  let closed = false
  const count = (proved: { path: ProofPath }[]) => {
    if (!onProofs) return
    for (const path of ['fast', 'reference'] as const) {
      const made = proved.filter((one) => one.path === path).length
      if (made > 0) onProofs(path, made)
    }
  }
  /** What every call needs first: an Ed25519 key, the shapes the loader answers, a signer not closed. */
  async function prepare(key: SigningKey, documentLoader: DocumentLoader): Promise<readonly string[]> {
    if (key.alg !== 'Ed25519') throw new TypeError(`eddsa-rdfc-2022 signs with an Ed25519 key, not ${key.alg}`)
    const trusted = await shapesTrustedBy(documentLoader)
    if (closed) throw new Error('the Data Integrity signer is closed')
    return trusted
  }
  return {
    async signMany(key, verificationMethod, requests, documentLoader) {
      if (requests.length === 0) return []
      const trusted = await prepare(key, documentLoader)
      const proved =
        threads === 0
          ? await (here ??= createEddsaRdfc2022()).sign(key.privateKey, verificationMethod, requests, documentLoader, trusted)
          : await (pool ??= createPool(threads, background)).sign(key, verificationMethod, requests, documentLoader, trusted, chunkSize)
      count(proved)
      return proved.map((one) => one.secured)
    },
    async proveJwts(key, verificationMethod, jwts, documentLoader) {
      if (jwts.length === 0) return []
      const trusted = await prepare(key, documentLoader)
      const proved =
        threads === 0
          ? await (here ??= createEddsaRdfc2022()).proveJwts(key.privateKey, verificationMethod, jwts, documentLoader, trusted)
          : await (pool ??= createPool(threads, background)).proveJwts(key, verificationMethod, jwts, documentLoader, trusted, chunkSize)
      count(proved)
      return proved.map((one) => one.json)
    },
    async close() {
      closed = true
      await pool?.close()
    },
  }
}

function createPool(size: number, background: boolean) {
  const pool = createThreadPool<ProofTask, ProvedInThread[] | ProvedJwt[]>({
    thread: 'data-integrity-thread',
    size,
    name: 'Data Integrity signing thread',
    background,
  })

  /** Splits `items` into chunks, run by whichever thread is free first; resolves in their order. */
  async function inChunks<Item, Result>(
    items: Item[],
    chunkSize: number,
    documentLoader: DocumentLoader,
    run: (chunk: Item[], load: (question: unknown) => Promise<unknown>) => Promise<Result[]>,
  ): Promise<Result[]> {
    const load = async (question: unknown) => {
      const { contextUrl, documentUrl, document, tag } = await documentLoader((question as LoadQuestion).url)
      return { contextUrl, documentUrl, document, ...(tag ? { tag } : {}) }
    }
    const parts: Promise<Result[]>[] = []
    for (let from = 0; from < items.length; from += chunkSize) parts.push(run(items.slice(from, from + chunkSize), load))
    // A chunk that died with its thread fails its call; the proof round puts its credentials back with back-off.
    const settled = await Promise.allSettled(parts)
    const failed = settled.find((part) => part.status === 'rejected')
    if (failed) throw failed.reason
    return settled.flatMap((part) => (part.status === 'fulfilled' ? part.value : []))
  }

  const keyOf = (key: SigningKey, verificationMethod: string, trusted: readonly string[]) => ({
    kid: key.kid,
    jwk: key.privateJwk as JsonWebKey,
    verificationMethod,
    trusted,
  })

  return {
    sign(key: SigningKey, verificationMethod: string, requests: ProofRequest[], documentLoader: DocumentLoader, trusted: readonly string[], chunkSize: number) {
      return inChunks(requests, chunkSize, documentLoader, async (chunk, load): Promise<Proved[]> => {
        const proved = (await pool.run({ ...keyOf(key, verificationMethod, trusted), requests: chunk }, load)) as ProvedInThread[]
        return proved.map((one, i) => (isSecured(one) ? one : { path: one.path, secured: { ...chunk[i]!.credential, proof: one.proof } }))
      })
    },
    /** The proofs of JWTs, each decoded and proved in a thread, back as their JSON text (ProvedJwt). */
    proveJwts(key: SigningKey, verificationMethod: string, jwts: string[], documentLoader: DocumentLoader, trusted: readonly string[], chunkSize: number) {
      return inChunks(
        jwts,
        chunkSize,
        documentLoader,
        async (chunk, load) => (await pool.run({ ...keyOf(key, verificationMethod, trusted), jwts: chunk }, load)) as ProvedJwt[],
      )
    },
    close: () => pool.close(),
  }
}

function isSecured(proved: ProvedInThread): proved is Proved {
  return 'secured' in proved
}

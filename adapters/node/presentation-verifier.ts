import type { DocumentLoader } from '../../core/ports/data-integrity-signer.ts'
import type { AuthenticationResult, PresentationVerifier } from '../../core/ports/presentation-verifier.ts'
import { didAuthenticationRefusal } from '../../core/wallets/did-authentication-shape.ts'
import type { LoadQuestion, PresentationTask } from './threads/presentation-thread.ts'
import { createThreadPool, ThreadTaskError } from './threads/pool.ts'

export interface PresentationVerifierOptions {
  /**
   * How long one check may take on its thread before it fails (`verified: false`) and the thread is
   * replaced: canonicalization is CPU work no promise can interrupt, so a thread that overruns is
   * terminated. A genuine DID Authentication takes milliseconds. Counted from when the thread takes the
   * check, after its libraries are loaded. Default: 2,000 ms.
   */
  timeBudgetMs?: number
  /**
   * How many checks may wait for the thread; one more fails at once (`verified: false`, "busy") rather than
   * waiting behind them, so that a flood of well-shaped presentations holds memory and wallets' waits to a
   * bound. Default: 64 (about three seconds of genuine checks).
   */
  maxWaiting?: number
}

/**
 * The DID Authentication check on Digital Bazaar's libraries (docs/learner-credential-wallet.md § Libraries):
 * their `Ed25519Signature2020` suite, the upstream of the one the wallet signs with, on jsonld-signatures,
 * which canonicalizes the presentation and the proof options with RDFC-1.0 in safe mode, hashes them, and
 * checks the `authentication` purpose (the challenge, and that the key's controller lists it under
 * `authentication`). First, on the JSON alone, the shape core requires (`didAuthenticationRefusal`: what
 * jsonld-signatures lets through, such as a second proof or a key of another DID than the holder's, and
 * anything the wallet does not send). The check itself runs on a worker thread of its own, with a time
 * budget (docs/learner-credential-wallet.md § Off the main thread): the presentation is the caller's, and
 * canonicalizing it on the event loop would hold every request of every club meanwhile.
 *
 * @example
 * const result = await createPresentationVerifier().verifyAuthentication(presentation, { challenge }, didAuthenticationLoader)
 */
export function createPresentationVerifier({ timeBudgetMs = 2_000, maxWaiting = 64 }: PresentationVerifierOptions = {}): PresentationVerifier & {
  close(): Promise<void>
} {
  // Started on first use: a process that checks no presentation (the admin CLI) starts no thread.
  let thread: ReturnType<typeof createVerifierThread> | null = null
  let closed = false
  return {
    async verifyAuthentication(presentation, { challenge }, documentLoader) {
      if (closed) return { verified: false, reason: 'The presentation verifier is closed.' }
      const refusal = didAuthenticationRefusal(presentation, challenge)
      if (refusal !== null) return { verified: false, reason: refusal }
      return (thread ??= createVerifierThread(timeBudgetMs, maxWaiting)).verify(presentation, challenge, documentLoader)
    },
    async close() {
      closed = true
      await thread?.close()
    },
  }
}

/**
 * One thread and a queue: checks are milliseconds each, one at a time, so that the budget of each is its
 * own. A thread that overruns its budget, or dies, is terminated and a fresh one takes the queue.
 */
function createVerifierThread(timeBudgetMs: number, maxWaiting: number) {
  const pool = createThreadPool<PresentationTask, AuthenticationResult>({
    thread: 'presentation-thread',
    size: 1,
    name: 'the presentation verifier',
    timeBudgetMs,
    maxWaiting,
  })
  return {
    async verify(presentation: Record<string, unknown>, challenge: string, documentLoader: DocumentLoader): Promise<AuthenticationResult> {
      const load = async (question: unknown) => {
        const { contextUrl, documentUrl, document } = await documentLoader((question as LoadQuestion).url)
        return { contextUrl, documentUrl, document }
      }
      try {
        return await pool.run({ presentation, challenge }, load)
      } catch (error) {
        return { verified: false, reason: refusalOf(error, timeBudgetMs) }
      }
    },
    close: () => pool.close(),
  }
}

function refusalOf(error: unknown, timeBudgetMs: number): string {
  if (!(error instanceof ThreadTaskError)) throw error
  if (error.reason === 'busy') return 'The server is busy checking other presentations; try again in a moment.'
  if (error.reason === 'time-budget') return `The presentation took longer than ${timeBudgetMs} ms to check.`
  if (error.reason === 'closed') return 'The presentation verifier is closed.'
  return `The presentation could not be checked (${error.detail})`
}

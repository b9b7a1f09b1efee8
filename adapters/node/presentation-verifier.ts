import { Worker } from 'node:worker_threads'
import type { DocumentLoader } from '../../core/ports/data-integrity-signer.ts'
import type { AuthenticationResult, PresentationVerifier } from '../../core/ports/presentation-verifier.ts'
import { didAuthenticationRefusal } from '../../core/wallets/did-authentication-shape.ts'

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
 * The thread: plain CommonJS evaluated from a string, as the signers' threads (adapters/node/
 * data-integrity-signer.ts), so that it needs no loader or file of its own; it imports the libraries from
 * the URLs the main thread resolved, answers the suite's own context from the suite's package, and asks
 * the main thread for every other document, whose loader the call gave.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const libraries = Promise.all(workerData.modules.map((url) => import(url)))
libraries.then(() => parentPort.postMessage({ type: 'ready' }), (error) => parentPort.postMessage({ type: 'ready', error: String(error && error.message || error) }))
const loads = new Map()
let nextLoad = 0
function loaderOf(check, suiteContext) {
  const url = suiteContext.constants.CONTEXT_URL
  const document = suiteContext.contexts.get(url)
  return (requested) => requested === url
    ? Promise.resolve({ contextUrl: null, documentUrl: url, document })
    : new Promise((resolve, reject) => {
        const load = nextLoad++
        loads.set(load, { resolve, reject })
        parentPort.postMessage({ type: 'load', check, load, url: requested })
      })
}
async function verify({ check, presentation, challenge }) {
  const [{ Ed25519Signature2020, suiteContext }, jsigsModule] = await libraries
  const jsigs = jsigsModule.default
  const purpose = new jsigs.purposes.AuthenticationProofPurpose({ challenge })
  const suite = new Ed25519Signature2020()
  const result = await jsigs.verify(presentation, { suite, purpose, documentLoader: loaderOf(check, suiteContext) })
  if (result.verified) return { verified: true }
  const error = (result.error && result.error.errors && result.error.errors[0]) || result.error
  return { verified: false, reason: 'The presentation' + "'" + 's proof does not verify (' + (error && error.message ? error.message : 'invalid signature') + ')' }
}
parentPort.on('message', (message) => {
  if (message.type === 'loaded') {
    const waiting = loads.get(message.load)
    loads.delete(message.load)
    if (message.error !== undefined) waiting.reject(new Error(message.error))
    else waiting.resolve(message.document)
    return
  }
  verify(message).then(
    (result) => parentPort.postMessage({ type: 'verified', check: message.check, result }),
    (error) => parentPort.postMessage({ type: 'verified', check: message.check, result: { verified: false, reason: 'The presentation could not be checked (' + String(error && error.message || error) + ')' } }),
  )
})
`

/** The libraries the thread imports, resolved here: an evaluated thread has no module of its own to resolve from. */
const THREAD_MODULES = ['@digitalbazaar/ed25519-signature-2020', 'jsonld-signatures']

interface Check {
  id: number
  message: { type: 'verify'; check: number; presentation: Record<string, unknown>; challenge: string }
  documentLoader: DocumentLoader
  resolve: (result: AuthenticationResult) => void
}

type ThreadMessage =
  | { type: 'ready'; error?: string }
  | { type: 'load'; check: number; load: number; url: string }
  | { type: 'verified'; check: number; result: AuthenticationResult }

/**
 * One thread and a queue: checks are milliseconds each, one at a time, so that the budget of each is its
 * own. A thread that overruns its budget, or dies, is terminated and a fresh one takes the queue.
 */
function createVerifierThread(timeBudgetMs: number, maxWaiting: number) {
  const modules = THREAD_MODULES.map((specifier) => import.meta.resolve(specifier))
  const queue: Check[] = []
  let nextCheck = 0
  let current: { check: Check; timer: ReturnType<typeof setTimeout> } | null = null
  let worker: Worker | null = null
  let ready = false
  let closed = false

  function start(): Worker {
    // No inherited execArgv: a loader such as tsx would keep the thread, and so the process, alive.
    const started = new Worker(THREAD_SOURCE, { eval: true, execArgv: [], workerData: { modules } })
    started.on('message', (message: ThreadMessage) => {
      if (started !== worker) return
      if (message.type === 'ready') {
        if (message.error !== undefined) return replace({ verified: false, reason: `The presentation could not be checked (${message.error})` })
        ready = true
      } else if (message.type === 'load') {
        void answerLoad(started, message)
        return
      } else if (current?.check.id === message.check) {
        settle(message.result)
      }
      dispatch()
    })
    started.on('error', (error) => {
      if (started === worker) replace({ verified: false, reason: `The presentation could not be checked (${error.message})` })
    })
    started.unref()
    return started
  }

  function settle(result: AuthenticationResult): void {
    if (!current) return
    clearTimeout(current.timer)
    current.check.resolve(result)
    current = null
  }

  /** Ends the current check with `result`, terminates the thread, and starts another for the queue. */
  function replace(result: AuthenticationResult): void {
    const old = worker
    worker = null
    ready = false
    if (current) settle(result)
    else if (result.verified === false && old) for (const check of queue.splice(0)) check.resolve(result) // the libraries did not load
    void old?.terminate()
    dispatch()
  }

  async function answerLoad(target: Worker, { check, load, url }: { check: number; load: number; url: string }) {
    try {
      if (current?.check.id !== check) throw new Error(`no document loader for ${url}: its check has ended`)
      const { contextUrl, documentUrl, document } = await current.check.documentLoader(url)
      target.postMessage({ type: 'loaded', load, document: { contextUrl, documentUrl, document } })
    } catch (error) {
      target.postMessage({ type: 'loaded', load, error: error instanceof Error ? error.message : String(error) })
    }
  }

  function dispatch(): void {
    if (closed || current || queue.length === 0) {
      if (!current) worker?.unref()
      return
    }
    worker ??= start()
    worker.ref()
    if (!ready) return
    const check = queue.shift()!
    const timer = setTimeout(() => replace({ verified: false, reason: `The presentation took longer than ${timeBudgetMs} ms to check.` }), timeBudgetMs)
    current = { check, timer }
    worker.postMessage(check.message)
  }

  return {
    verify(presentation: Record<string, unknown>, challenge: string, documentLoader: DocumentLoader): Promise<AuthenticationResult> {
      if (closed) return Promise.resolve({ verified: false, reason: 'The presentation verifier is closed.' })
      if (queue.length >= maxWaiting)
        return Promise.resolve({ verified: false, reason: 'The server is busy checking other presentations; try again in a moment.' })
      return new Promise((resolve) => {
        const id = nextCheck++
        queue.push({ id, message: { type: 'verify', check: id, presentation, challenge }, documentLoader, resolve })
        dispatch()
      })
    },
    async close() {
      closed = true
      const result = { verified: false, reason: 'The presentation verifier is closed.' } as const
      settle(result)
      for (const check of queue.splice(0)) check.resolve(result)
      await worker?.terminate()
      worker = null
    },
  }
}

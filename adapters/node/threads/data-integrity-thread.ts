import type { ProofRequest, RemoteDocument } from '../../../core/ports/data-integrity-signer.ts'
import { createEddsaRdfc2022, type Proved, type ProvedJwt } from '../data-integrity/eddsa-rdfc-2022.ts'
import { serveTasks } from './serve.ts'

/**
 * A chunk of a proof round (adapters/node/data-integrity-signer.ts): credentials (`signMany`), or stored
 * credentials' JWTs (`proveJwts`), which the thread decodes itself: a string is cheap to hand over, a
 * credential object is not.
 */
export type ProofTask = TaskKey & ({ requests: ProofRequest[] } | { jwts: string[] })

interface TaskKey {
  kid: string
  jwk: JsonWebKey
  verificationMethod: string
  trusted: readonly string[]
}

/**
 * A credential's proof as the thread hands it back: the proof alone where the fast path secured the
 * credential as `{ ...credential, proof }` (the calling thread spreads it again; cloning the whole
 * credential back across threads was most of the hand-over's cost), else the secured document.
 */
export type ProvedInThread = { path: 'fast'; proof: unknown } | Proved

/** The question a chunk asks of the calling thread, whose document loader the call gave: a context by its URL. */
export interface LoadQuestion {
  url: string
}

// The same module as the calling thread signs with (a test checks that both make the same proofs).
const suite = createEddsaRdfc2022()
const keys = new Map<string, CryptoKey>()

/**
 * Contexts are loaded by asking the calling thread: a context the loader marks `static` is asked for
 * once per thread, after which jsonld keeps it resolved.
 */
serveTasks(async (task: ProofTask, ask): Promise<ProvedInThread[] | ProvedJwt[]> => {
  const { kid, jwk, verificationMethod, trusted } = task
  // By kid and public key: a key given under a kid seen before with another key is that other key.
  const cached = `${kid} ${jwk.x}`
  let privateKey = keys.get(cached)
  if (!privateKey) {
    if (keys.size >= 1000) keys.clear()
    privateKey = await crypto.subtle.importKey('jwk', jwk, { name: 'Ed25519' }, false, ['sign'])
    keys.set(cached, privateKey)
  }
  const load = (url: string) => ask({ url } satisfies LoadQuestion) as Promise<RemoteDocument>
  if ('jwts' in task) return suite.proveJwts(privateKey, verificationMethod, task.jwts, load, trusted)
  const proved = await suite.sign(privateKey, verificationMethod, task.requests, load, trusted)
  return proved.map((one) => (one.path === 'fast' ? { path: 'fast', proof: one.secured.proof } : one))
})

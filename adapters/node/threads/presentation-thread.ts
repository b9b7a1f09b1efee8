import { Ed25519Signature2020, suiteContext } from '@digitalbazaar/ed25519-signature-2020'
import jsigs from 'jsonld-signatures'
import type { RemoteDocument } from '../../../core/ports/data-integrity-signer.ts'
import type { AuthenticationResult } from '../../../core/ports/presentation-verifier.ts'
import { serveTasks } from './serve.ts'

/** A DID Authentication to check (adapters/node/presentation-verifier.ts). */
export interface PresentationTask {
  presentation: Record<string, unknown>
  challenge: string
}

/** The question a check asks of the calling thread, whose document loader the call gave: a document by its URL. */
export interface LoadQuestion {
  url: string
}

/**
 * Checks the presentation's proof for the `authentication` purpose: the suite's own context is answered
 * from the suite's package, every other document is asked of the calling thread. The libraries load with
 * this module, before the thread tells the pool it is ready: the time budget counts the check alone.
 */
serveTasks(async ({ presentation, challenge }: PresentationTask, ask): Promise<AuthenticationResult> => {
  const suiteUrl = suiteContext.constants.CONTEXT_URL
  const suiteDocument = suiteContext.contexts.get(suiteUrl)
  const documentLoader = (url: string): Promise<RemoteDocument> =>
    url === suiteUrl
      ? Promise.resolve({ contextUrl: null, documentUrl: url, document: suiteDocument })
      : (ask({ url } satisfies LoadQuestion) as Promise<RemoteDocument>)
  let result: Awaited<ReturnType<typeof jsigs.verify>>
  try {
    const purpose = new jsigs.purposes.AuthenticationProofPurpose({ challenge })
    result = await jsigs.verify(presentation, { suite: new Ed25519Signature2020(), purpose, documentLoader })
  } catch (error) {
    return { verified: false, reason: `The presentation could not be checked (${error instanceof Error ? error.message : String(error)})` }
  }
  if (result.verified) return { verified: true }
  const error = result.error?.errors?.[0] ?? result.error
  return { verified: false, reason: `The presentation's proof does not verify (${error?.message ? error.message : 'invalid signature'})` }
})

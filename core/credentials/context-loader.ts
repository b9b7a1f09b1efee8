import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context'
import type { DocumentLoader } from '../ports/data-integrity-signer.ts'
import { OB_V3P0_CONTEXT_3_0_3 } from './contexts/ob-v3p0-context-3.0.3.ts'
import { OB_V3P0_EXTENSIONS } from './contexts/ob-v3p0-extensions.ts'

export const VC_V2 = 'https://www.w3.org/ns/credentials/v2'

/**
 * Every context URL of `OB3_CONTEXT` (core/credentials/build-ob3.ts), as clubcred holds it (contexts/SOURCE.md).
 * The Node signer's direct path compares what a loader answers with these (docs/data-integrity.md § Cost).
 */
export const LOCAL_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [VC_V2, credentialsContexts.get(VC_V2)],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json', OB_V3P0_CONTEXT_3_0_3],
  ['https://purl.imsglobal.org/spec/ob/v3p0/extensions.json', OB_V3P0_EXTENSIONS],
])

/**
 * The document loader of Data Integrity signing (docs/data-integrity.md § Contexts): the contexts of
 * `OB3_CONTEXT` from the copies clubcred ships, never from the network. A signature must not depend on
 * what a remote server answers at signing time (a changed or hijacked context would change what is
 * signed), and signing must not wait on, or fail with, someone else's server. Any other URL is an error
 * that names it.
 */
export const contextLoader: DocumentLoader = localLoader(LOCAL_CONTEXTS)

/**
 * The document loader of the status list's proof (docs/data-integrity.md § Status list): the
 * Bitstring Status List credential names only the VC 2.0 context, which defines every term it uses, so
 * this loader holds that one context and refuses any other.
 */
export const statusListContextLoader: DocumentLoader = localLoader(new Map([[VC_V2, LOCAL_CONTEXTS.get(VC_V2)]]))

function localLoader(contexts: ReadonlyMap<string, unknown>): DocumentLoader {
  return async (url) => {
    const document = contexts.get(url)
    if (document === undefined) throw new Error(`the JSON-LD context ${url} is not one clubcred holds, and contexts are never fetched`)
    // Static: clubcred's copies are fixed for the life of the process, and the processor may keep them resolved.
    return { contextUrl: null, documentUrl: url, document, tag: 'static' }
  }
}

/**
 * The child process of test/support/verifier-core.ts: runs `@digitalcredentials/verifier-core` once, on
 * the request read from stdin, and writes `{ result, requests }` as JSON on stdout.
 *
 * verifier-core builds its document loader at module load and fetches with the global `fetch` (did:web
 * over https, contexts, status lists, JSON schemas, issuer registries). Before it loads, `fetch` is
 * replaced here: the published contexts and the OB 3.0 schema are answered from local copies, the
 * product's origin (https on loopback, its certificate trusted through NODE_EXTRA_CA_CERTS) goes through,
 * and every other URL throws, naming it. Nothing reaches the internet.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import didContext from 'did-context'
import multikeyContext from '@digitalbazaar/multikey-context'
import ed25519Context from 'ed25519-signature-2020-context'

export interface ChildRequest {
  /** The product's https origin (`https://localhost:<port>`): the only one fetched for real. */
  origin: string
  credential?: unknown
  presentation?: unknown
  unsignedPresentation?: boolean
  knownDIDRegistries: unknown[]
}

/** A URL verifier-core fetched: where it was answered from, and the `Accept` it sent. */
export interface FetchedUrl {
  url: string
  accept: string | null
  answeredBy: 'local copy' | 'product' | 'refused'
  status?: number
  contentType?: string | null
}

const FIXTURES = fileURLToPath(new URL('../fixtures/ob3/', import.meta.url))
const fixture = (file: string): unknown => JSON.parse(readFileSync(`${FIXTURES}${file}`, 'utf8'))

/** The public documents verifier-core may fetch, by URL, from copies that clubcred's signer does not use. */
const LOCAL_COPIES: ReadonlyMap<string, unknown> = new Map([
  ['https://www.w3.org/ns/credentials/v2', fixture('contexts/w3c_credentials_v2.jsonld')],
  ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json', fixture('contexts/ob_v3p0_context-3.0.3.json')],
  ['https://purl.imsglobal.org/spec/ob/v3p0/extensions.json', fixture('contexts/ob_v3p0_extensions.json')],
  [
    'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json',
    fixture('schemas/ob_v3p0_achievementcredential_schema.thirdparty-copy.json'),
  ],
  [didContext.CONTEXT_URL, didContext.contexts.get(didContext.CONTEXT_URL)],
  [multikeyContext.CONTEXT_URL, multikeyContext.contexts.get(multikeyContext.CONTEXT_URL)],
  [ed25519Context.CONTEXT_URL, ed25519Context.contexts.get(ed25519Context.CONTEXT_URL)],
])

async function main(): Promise<void> {
  const request = JSON.parse(readFileSync(0, 'utf8')) as ChildRequest
  const requests: FetchedUrl[] = []
  const networkFetch = globalThis.fetch
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const asked = new Request(input, init)
    const url = new URL(asked.url)
    const accept = asked.headers.get('accept')
    const copy = LOCAL_COPIES.get(url.href)
    if (copy !== undefined) {
      requests.push({ url: url.href, accept, answeredBy: 'local copy' })
      return new Response(JSON.stringify(copy), { headers: { 'content-type': 'application/ld+json' } })
    }
    if (url.origin !== request.origin) {
      requests.push({ url: url.href, accept, answeredBy: 'refused' })
      throw new TypeError(`offline: verifier-core asked for ${url.href}, which is neither the product (${request.origin}) nor a local copy`)
    }
    const response = await networkFetch(asked)
    requests.push({ url: url.href, accept, answeredBy: 'product', status: response.status, contentType: response.headers.get('content-type') })
    return response
  }

  const verifierCore = await import('@digitalcredentials/verifier-core')
  const { knownDIDRegistries } = request
  // The documents are whatever the test sends: verifier-core is what judges them.
  type Presentation = Parameters<typeof verifierCore.verifyPresentation>[0]['presentation']
  type Credential = Parameters<typeof verifierCore.verifyCredential>[0]['credential']
  const result =
    request.presentation !== undefined
      ? await verifierCore.verifyPresentation({
          presentation: request.presentation as Presentation,
          knownDIDRegistries,
          ...(request.unsignedPresentation ? { unsignedPresentation: true } : {}),
        })
      : await verifierCore.verifyCredential({ credential: request.credential as Credential, knownDIDRegistries })
  process.stdout.write(JSON.stringify({ result, requests }, errorsAsJson))
}

/** JSON of an Error keeps its name, message and cause (JSON.stringify alone writes `{}`). */
function errorsAsJson(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value
  const { name, message, cause } = value as Error & { cause?: unknown }
  return { name, message, ...(cause === undefined ? {} : { cause }), ...Object.fromEntries(Object.entries(value)) }
}

await main()

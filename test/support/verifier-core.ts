/**
 * `@digitalcredentials/verifier-core` (the verifier of VerifierPlus and the Learner Credential Wallet)
 * run offline against the product (docs/data-integrity.md § Verification in the tests):
 *
 * - the product served over https on 127.0.0.1 as `https://localhost:<port>`, with a self-signed
 *   certificate made at test time by `openssl` (SAN `localhost` and `127.0.0.1`), so that the club's
 *   did:web (`did:web:localhost%3A<port>:open-badges:v3:issuers:<club>`) resolves to it as did:web
 *   demands, over https;
 * - verifier-core in a child process (test/support/verifier-core-child.ts), one per verification: its
 *   module-level document loader and DID cache, and the global `fetch` it replaces, stay there. The child
 *   trusts the certificate through NODE_EXTRA_CA_CERTS, answers the published contexts and the OB 3.0
 *   schema from local copies, and refuses every other URL that is not the product's.
 *
 * @example
 * const certificate = selfSignedCertificate()
 * const api = await openVerificationApi({ tls: certificate })
 * const { result } = await verifyWithVerifierCore({ credential, origin: api.origin, certificate })
 * assert.equal(logEntry(result, 'valid_signature')?.valid, true)
 */
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChildRequest, FetchedUrl } from './verifier-core-child.ts'

export type { FetchedUrl } from './verifier-core-child.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CHILD = fileURLToPath(new URL('./verifier-core-child.ts', import.meta.url))

/** A self-signed certificate for `localhost` and 127.0.0.1, as PEM and as the file NODE_EXTRA_CA_CERTS names. */
export interface TestCertificate {
  key: string
  cert: string
  certFile: string
  remove(): void
}

/** Makes a P-256 self-signed certificate with `openssl` (valid one day), for `localhost` and 127.0.0.1. */
export function selfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-tls-'))
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')]
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A step of verifier-core's `log` (`valid_signature`, `expiration`, `revocation_status`, `registered_issuer`). */
export interface LogEntry {
  id: string
  valid?: boolean
  error?: { name: string; message: string }
  [member: string]: unknown
}

/** What verifier-core's `verifyCredential` answers: a log of steps, or `errors` when it could not check the signature. */
export interface VerifierCoreResult {
  credential?: unknown
  log?: LogEntry[]
  errors?: { name: string; message: string }[]
  additionalInformation?: { id: string; results?: unknown }[]
  [member: string]: unknown
}

export interface VerifierCoreRun<Result = VerifierCoreResult> {
  result: Result
  /** Every URL verifier-core fetched, in order. */
  requests: FetchedUrl[]
}

export interface VerifyOptions {
  credential?: unknown
  presentation?: unknown
  unsignedPresentation?: boolean
  /** The product's https origin, `https://localhost:<port>` (the `origin` of `openVerificationApi({ tls })`). */
  origin: string
  certificate: Pick<TestCertificate, 'certFile'>
  /** Issuer registries to consult (none by default: verifier-core then reports `registered_issuer` invalid). */
  knownDIDRegistries?: unknown[]
}

/**
 * Verifies a credential (or a presentation) with verifier-core in a child process, through the product's
 * own URLs. Rejects when the child fails outright (its stderr in the message); a credential that does
 * not verify is a result, not a rejection.
 */
export async function verifyWithVerifierCore<Result = VerifierCoreResult>(options: VerifyOptions): Promise<VerifierCoreRun<Result>> {
  assert.ok((options.credential === undefined) !== (options.presentation === undefined), 'a credential or a presentation')
  assert.match(options.origin, /^https:\/\/localhost:\d+$/, 'did:web resolves over https: the product must listen with tls')
  const request: ChildRequest = {
    origin: options.origin,
    ...(options.credential !== undefined ? { credential: options.credential } : {}),
    ...(options.presentation !== undefined ? { presentation: options.presentation } : {}),
    ...(options.unsignedPresentation ? { unsignedPresentation: true } : {}),
    knownDIDRegistries: options.knownDIDRegistries ?? [],
  }
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: options.certificate.certFile, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
    child.stdin.end(JSON.stringify(request))
  })
  if (code !== 0) throw new Error(`verifier-core's child exited with ${code}:\n${stderr}`)
  return JSON.parse(stdout) as VerifierCoreRun<Result>
}

/** The step `id` of a result's log, or `undefined`. */
export function logEntry(result: VerifierCoreResult, id: string): LogEntry | undefined {
  return result.log?.find((entry) => entry.id === id)
}

/**
 * The cost of the JSON-LD form (docs/data-integrity.md § Cost): `eddsa-rdfc-2022` proofs per second on
 * one core (the main thread, one after another), over credentials issued through the library on the
 * memory storage, beside ES256 JWT signing of the same credentials on the same thread (the Node signer
 * without worker threads) in the same run. Prints one JSON line; progress goes to stderr.
 *
 *   npx tsx bench/data-integrity.bench.ts [--credentials 2000] [--warmup 1000] [--rounds 5]
 *
 * The defaults measure the proof, not the JIT warming up: 200 credentials after 50 of warm-up, 3 rounds,
 * gave 0.3 to 0.57 ms of CPU a proof from run to run, against a steady 0.15 ms with these (a round is
 * still a fraction of a second).
 *
 * `msPerProof` is the median round, `cpuMsPerProof` the process's CPU time a proof in the median round by
 * CPU (user + system: on a loaded machine it counts what the thread ran, not what it waited). The proof's time is almost all RDFC-1.0 canonicalization (JSON-LD
 * expansion to RDF, then blank-node labelling) of the credential and of the proof options; the Ed25519
 * signature is a few tens of µs of it.
 *
 * Then the signer as the proof round uses it (docs/data-integrity.md § Signing): the `--credentials` in
 * one `signMany` call on the calling thread (`threads: 0`) and in `--threads N` worker threads (default:
 * the signer's own), each time with the main thread's event-loop delay (perf_hooks, p99 and max, ms)
 * while the call runs: `byThreads`.
 */
import { availableParallelism } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createIssuer, defaultUrls } from '../index.ts'
import { createMemoryStorage } from '../adapters/memory/index.ts'
import { createNodeSigner } from '../adapters/node/index.ts'
import { createDataIntegritySigner } from '../adapters/node/data-integrity-signer.ts'
import { signDataIntegrity, type CredentialObject } from '../core/credentials/sign-data-integrity.ts'
import { clubDataIntegrityKeyOwner, clubDid, clubKeyOwner } from '../core/did-documents/did.ts'
import { createKeyStore } from '../core/keys/create-key-store.ts'
import { benchSettings } from './settings.ts'

const {
  credentials: CREDENTIALS,
  warmup: WARMUP,
  rounds: ROUNDS,
  threads: THREADS,
} = benchSettings({ credentials: 2000, warmup: 1000, rounds: 5, threads: Math.max(1, availableParallelism() - 1) })
const CLUB = 'bench'

const storage = createMemoryStorage()
const keys = createKeyStore({ storage, masterKey: crypto.getRandomValues(new Uint8Array(32)) })
const issuer = createIssuer({ storage, keys, urls: defaultUrls(8787), http: { onError: (error) => console.error(error) } })
await issuer.clubs.create({ domain: CLUB, name: 'Bench Club' })
const template = await issuer.achievements.create(CLUB, {
  name: 'Endgame study',
  description: 'Studied rook endgames and won three games with them.',
  tag: ['chess', 'endgames'],
  criteria: { requirements: [{ description: 'Solve 50 studies', url: 'https://chess.example/studies' }] },
})

/** The `vc` of each credential, as issuing built and signed it. */
const credentials: CredentialObject[] = []
const payloads: string[] = []
const total = CREDENTIALS + WARMUP
for (let offset = 0; offset < total; offset += 1000) {
  const count = Math.min(1000, total - offset)
  const recipients = Array.from({ length: count }, (_, i) => ({
    externalUserId: `u${offset + i}`,
    name: `Recipient ${offset + i}`,
    email: `r${offset + i}@example.com`,
  }))
  const { result } = await issuer.issuances.issue(CLUB, { achievementFormId: template.id, mode: 'none', recipients })
  await issuer.worker.drain()
  for (const item of result.results) {
    if (item.status !== 'issued') throw new Error(`bench: recipient ${item.ref} was not issued`)
    const { jwt } = await issuer.issuances.credential(CLUB, item.resourceId)
    const payload = Buffer.from(jwt.split('.')[1]!, 'base64url').toString()
    payloads.push(payload)
    credentials.push((JSON.parse(payload) as { vc: CredentialObject }).vc)
  }
}

const did = clubDid(issuer.config, CLUB)
const dataIntegrityKey = await keys.activeKey(clubDataIntegrityKeyOwner(CLUB))
const jwtKey = await keys.activeKey(clubKeyOwner(CLUB))
const dataIntegritySigner = createDataIntegritySigner({ threads: 0 })
const jwtSigner = createNodeSigner({ threads: 0 })
const header = { alg: 'ES256', typ: 'JWT', kid: `${did}#${jwtKey.kid}` }

/** CPU time of the process (user + system, ms) spent in `run`: on one thread, with nothing else running, that thread's. */
async function cpuMs(run: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage()
  await run()
  const { user, system } = process.cpuUsage(started)
  return (user + system) / 1000
}

async function proofs(from: number, count: number): Promise<number> {
  const started = performance.now()
  for (let i = from; i < from + count; i++) await signDataIntegrity(dataIntegritySigner, dataIntegrityKey, did, [credentials[i]!])
  return performance.now() - started
}

async function jwts(from: number, count: number): Promise<number> {
  const started = performance.now()
  for (let i = from; i < from + count; i++) await jwtSigner.signMany(jwtKey, header, [payloads[i]!])
  return performance.now() - started
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

console.error(`warming up on ${WARMUP} credentials`)
await proofs(0, WARMUP)
await jwts(0, WARMUP)
const proofMs: number[] = []
const proofCpuMs: number[] = []
const jwtMs: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  let wall = 0
  proofCpuMs.push((await cpuMs(async () => (wall = await proofs(WARMUP, CREDENTIALS)))) / CREDENTIALS)
  proofMs.push(wall / CREDENTIALS)
  jwtMs.push((await jwts(WARMUP, CREDENTIALS)) / CREDENTIALS)
  console.error(`round ${round + 1}: ${proofMs.at(-1)!.toFixed(3)} ms a proof (${proofCpuMs.at(-1)!.toFixed(3)} ms CPU), ${jwtMs.at(-1)!.toFixed(3)} ms a JWT`)
}
const [secured] = await signDataIntegrity(dataIntegritySigner, dataIntegrityKey, did, [credentials[0]!])

/** Proofs per second of one `signMany` of the measured credentials, and the event-loop delay meanwhile. */
async function oneCall(threads: number) {
  const signer = createDataIntegritySigner({ threads })
  // The threads' start and their JIT: not what a running server pays per proof.
  await signDataIntegrity(signer, dataIntegrityKey, did, credentials.slice(0, WARMUP))
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  const started = performance.now()
  await signDataIntegrity(signer, dataIntegrityKey, did, credentials.slice(WARMUP, WARMUP + CREDENTIALS))
  const ms = performance.now() - started
  delay.disable()
  await signer.close()
  return {
    proofsPerSecond: Math.round((CREDENTIALS * 1000) / ms),
    eventLoopDelayMs: { p99: Number((delay.percentile(99) / 1e6).toFixed(1)), max: Number((delay.max / 1e6).toFixed(1)) },
  }
}
const byThreads: Record<string, unknown> = {}
for (const threads of [0, THREADS]) {
  byThreads[threads] = await oneCall(threads)
  console.error(`threads ${threads}: ${JSON.stringify(byThreads[threads])}`)
}

console.log(
  JSON.stringify({
    bench: 'data-integrity',
    credentials: CREDENTIALS,
    rounds: ROUNDS,
    msPerProof: Number(median(proofMs).toFixed(3)),
    cpuMsPerProof: Number(median(proofCpuMs).toFixed(3)),
    proofsPerSecondOneCore: Math.round(1000 / median(proofMs)),
    msPerJwt: Number(median(jwtMs).toFixed(3)),
    jwtsPerSecondOneCore: Math.round(1000 / median(jwtMs)),
    proofToJwtRatio: Number((median(proofMs) / median(jwtMs)).toFixed(1)),
    credentialBytes: JSON.stringify(credentials[0]).length,
    proofBytes: JSON.stringify(secured!.proof).length,
    byThreads,
    node: process.version,
  }),
)
await jwtSigner.close()
await issuer.close()

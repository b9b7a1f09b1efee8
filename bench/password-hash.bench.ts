/**
 * The console's password hash: milliseconds per scrypt hash (`adapters/node/password-hasher.ts`) at
 * OWASP's N = 2^17, r = 8, p = 1 and at the equivalents with less memory, one hash at a time after a
 * warm-up. Prints one JSON line on stdout. The figure goes in docs/admin-console.md § Passwords.
 *
 *   npx tsx bench/password-hash.bench.ts [--runs 10]
 */
import { createScryptPasswordHasher } from '../adapters/node/password-hasher.ts'
import type { ScryptParameters } from '../core/crypto/scrypt-phc.ts'

const runsArgument = process.argv.indexOf('--runs')
const RUNS = runsArgument > 0 ? Number(process.argv[runsArgument + 1]) : 10

const CANDIDATES: ScryptParameters[] = [
  { ln: 17, r: 8, p: 1 },
  { ln: 16, r: 8, p: 2 },
  { ln: 16, r: 8, p: 1 },
]

const results: Record<string, { msPerHash: number; msMin: number; mebibytes: number }> = {}
for (const parameters of CANDIDATES) {
  const hasher = createScryptPasswordHasher({ parameters })
  await hasher.hash('warm-up password')
  const times: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    await hasher.hash('correct horse battery staple')
    times.push(performance.now() - started)
  }
  const name = `N=2^${parameters.ln},r=${parameters.r},p=${parameters.p}`
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length
  results[name] = { msPerHash: Math.round(mean), msMin: Math.round(Math.min(...times)), mebibytes: (128 * 2 ** parameters.ln * parameters.r) / 2 ** 20 }
  process.stderr.write(`${name}: ${Math.round(mean)} ms a hash\n`)
}
console.log(JSON.stringify({ bench: 'password-hash', runs: RUNS, results }))

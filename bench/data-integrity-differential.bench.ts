/**
 * The long run of the fast path's differential check (docs/decisions/0044-data-integrity-proofs-without-a-json-ld-processor.md):
 * `--cases` generated credentials (and a tenth as many status lists) over every field clubcred engraves
 * (test/support/credential-arbitrary.ts), each canonicalized by the fast path and by the reference
 * (`jsonld` + `rdf-canonize` in safe mode, the cryptosuite's own `canonize`); the canonical N-Quads must
 * be equal byte for byte wherever the reference canonicalizes, and the fast path must not write what the
 * reference refuses; a credential the reference refuses at all is a failure, as clubcred must never make
 * one. npm test runs the same property over a few hundred cases
 * (test/adapters/data-integrity-fast-path.test.ts). Prints one JSON line; exits 1 on the first difference.
 *
 *   npx tsx bench/data-integrity-differential.bench.ts [--cases 10000] [--seed 39]
 */
import fc from 'fast-check'
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite'
import { canonicalNQuads } from '../adapters/node/data-integrity/canonize.ts'
import { documentShapeOf, writeQuads } from '../adapters/node/data-integrity/credential-quads.ts'
import { contextLoader, statusListContextLoader } from '../core/credentials/context-loader.ts'
import type { DocumentLoader } from '../core/ports/data-integrity-signer.ts'
import { openBadgeCredential, statusListCredential } from '../test/support/credential-arbitrary.ts'
import { benchSettings } from './settings.ts'

const { cases: CASES, seed: SEED } = benchSettings({ cases: 10_000, seed: 39 })

const counts = { compared: 0, fast: 0, declined: 0, refusedByBoth: 0, referenceMs: 0, fastMs: 0 }

/** `accepted`: a document clubcred makes, which the reference must canonicalize (a co-issuer without a url was once refused). */
async function check(document: Record<string, unknown>, documentLoader: DocumentLoader, accepted = false): Promise<boolean> {
  counts.compared += 1
  let started = performance.now()
  const expected = await cryptosuite.canonize(document, { documentLoader, safe: true, base: null }).catch((error: Error) => error)
  counts.referenceMs += performance.now() - started
  started = performance.now()
  const shape = documentShapeOf(document)
  const quads = shape && writeQuads(document, shape)
  const actual = quads ? await canonicalNQuads(quads) : null
  counts.fastMs += performance.now() - started
  if (expected instanceof Error) {
    counts.refusedByBoth += 1
    return !accepted && actual === null
  }
  if (actual === null) {
    counts.declined += 1
    return true
  }
  counts.fast += 1
  return actual === expected
}

const started = performance.now()
let failure: unknown = null
try {
  await fc.assert(
    fc.asyncProperty(openBadgeCredential, (credential) => check(credential, contextLoader, true)),
    { numRuns: CASES, seed: SEED },
  )
  await fc.assert(
    fc.asyncProperty(statusListCredential, (list) => check(list, statusListContextLoader)),
    { numRuns: Math.ceil(CASES / 10), seed: SEED },
  )
} catch (error) {
  failure = error
}
console.log(
  JSON.stringify({
    bench: 'data-integrity-differential',
    seed: SEED,
    ...counts,
    referenceMs: Math.round(counts.referenceMs),
    fastMs: Math.round(counts.fastMs),
    equal: failure === null,
    seconds: Math.round((performance.now() - started) / 1000),
  }),
)
if (failure) {
  console.error(failure)
  process.exitCode = 1
}

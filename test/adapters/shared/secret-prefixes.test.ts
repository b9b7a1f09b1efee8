/**
 * Every secret clubcred hands out stays out of logs and request ids (docs/logs.md § What never enters a line). The prefixes are found in the code itself, so that a new kind of secret cannot be added without
 * this test naming it: every `'<word>_'` prefix the code writes is classified here as a secret or as an
 * id, and each secret is masked in free text, refused as `X-Request-Id` (a new id is answered instead)
 * and masked in a logged User-Agent. The console's session cookie has no prefix; it is masked by name.
 *
 * @see docs/decisions/0042-outside-review-smaller-findings.md
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import { holdsSecret, maskSecrets } from '../../../adapters/shared/mask-secrets.ts'
import { acceptedRequestId } from '../../../adapters/http/request-id.ts'
import { createMemoryStorage } from '../../../adapters/memory/index.ts'
import { createIssuer } from '../../../index.ts'
import { createLogger } from '../../../server/log.ts'
import { issuerLogging } from '../../../server/log-wiring.ts'
import { ROOT } from '../../support/server.ts'

/** Every prefix the code writes, classified: a secret must never be logged; an id may be. */
const PREFIXES: Record<string, { secret: string } | 'id'> = {
  ccs_: { secret: 'ccs__7Q5HP7W6j_-DHn2Mv6Rvr-oqs_5Noc04SeYPwy3CSc' },
  cck_: { secret: 'cck_0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde' },
  ccsetup_: { secret: 'ccsetup_Kq3xV9mB2nL7pR4tY8wZ1cF6hJ0sD5gA-_eUiOoPlMk' },
  whsec_: { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  cc_: 'id',
  adm_: 'id',
  pk_: 'id',
  csv_: 'id',
  wh_: 'id',
}

/** The prefixes written before random text in core/, adapters/ and server/: `'xyz_'` and `` `xyz_${`` literals. */
function prefixesInCode(): Set<string> {
  const found = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/'([a-z]{2,10}_)'|`([a-z]{2,10}_)\$\{/g)) found.add((match[1] ?? match[2])!)
      }
    }
  }
  for (const dir of ['core', 'adapters', 'server']) walk(join(ROOT, dir))
  return found
}

const SECRETS = Object.entries(PREFIXES).flatMap(([prefix, kind]) => (kind === 'id' ? [] : [[prefix, kind.secret] as const]))
const SESSION_COOKIES = [
  'clubcred-admin=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u',
  '__Host-clubcred-admin=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u',
]

describe('every secret clubcred hands out', () => {
  it('the code makes no prefix this list does not classify', () => {
    const unclassified = [...prefixesInCode()].filter((prefix) => !(prefix in PREFIXES))
    assert.deepStrictEqual(unclassified, [], 'classify each as a secret (and mask it) or an id')
    for (const [prefix] of SECRETS) assert.ok(prefixesInCode().has(prefix), `${prefix} is still made by the code`)
  })

  for (const [prefix, secret] of SECRETS) {
    it(`masks ${prefix}… in text and refuses it as a request id`, () => {
      assert.equal(maskSecrets(`token ${secret} refused`), 'token [secret] refused')
      assert.equal(holdsSecret(secret), true)
      assert.notEqual(acceptedRequestId(secret), secret)
      assert.notEqual(acceptedRequestId(`edge-${secret}`), `edge-${secret}`)
    })
  }

  it('masks the console session cookie by its name', () => {
    for (const cookie of SESSION_COOKIES) {
      const masked = maskSecrets(`probe (${cookie}; theme=dark)`)
      assert.ok(!masked.includes('Zm9vYmFy'), masked)
      assert.match(masked, /clubcred-admin=\[secret\]; theme=dark\)$/)
    }
  })

  it('a setup token as X-Request-Id is not echoed, and in a User-Agent it is masked in the log line', async () => {
    const lines: string[] = []
    const logger = createLogger({
      level: 'debug',
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk))
          done()
        },
      }),
    })
    const issuer = createIssuer({
      storage: createMemoryStorage(),
      masterKey: new Uint8Array(32).fill(7),
      urls: {
        base: 'http://localhost:8787',
        auth: 'http://localhost:8787/oauth',
        public: 'http://localhost:8787',
        shareHost: 'localhost:8787',
        legacyBase: 'http://localhost:8787',
      },
      http: issuerLogging(logger).http,
    })
    for (const [, secret] of SECRETS) {
      const response = await issuer.fetch(
        new Request('http://localhost:8787/healthz', { headers: { 'x-request-id': secret, 'user-agent': `probe/1.0 (${secret}; ${SESSION_COOKIES[1]})` } }),
      )
      await response.arrayBuffer()
      assert.notEqual(response.headers.get('x-request-id'), secret)
    }
    await new Promise((resolve) => setImmediate(resolve))
    const logged = lines.join('')
    assert.equal((logged.match(/"user-agent":"probe\/1.0 \(\[secret\]; __Host-clubcred-admin=\[secret\]\)"/g) ?? []).length, SECRETS.length, logged)
    for (const [, secret] of SECRETS) assert.ok(!logged.includes(secret.slice(0, 16)), `${secret.slice(0, 10)}… is not in the log`)
  })
})

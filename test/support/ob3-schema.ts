/**
 * The OB 3.0 AchievementCredential JSON Schema (docs/decisions/0014-signed-credential.md: every credential
 * the project signs validates against `standards/ob3/schemas/`), and one check of everything
 * docs/decisions/0014-signed-credential.md says of a signed credential.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv2019 } from 'ajv/dist/2019.js'
import addFormatsModule from 'ajv-formats'
import { compactVerify, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose'
import type { Json } from './json.ts'

/** 1EdTech's schema, vendored in test/fixtures/ob3 (see its SOURCE.md); `OB3_SCHEMA_FILE` overrides the path. */
const SCHEMA_FILE =
  process.env.OB3_SCHEMA_FILE ?? fileURLToPath(new URL('../fixtures/ob3/schemas/ob_v3p0_achievementcredential_schema.thirdparty-copy.json', import.meta.url))
if (!existsSync(SCHEMA_FILE)) {
  throw new Error(`the OB 3.0 AchievementCredential schema is not at ${SCHEMA_FILE}; set OB3_SCHEMA_FILE to its path`)
}

// ajv-formats is CommonJS: its default export is the plugin, or the plugin sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2019) => void

const ajv = new Ajv2019({ strict: false, allErrors: true })
addFormats(ajv)
const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')))

/** Throws, listing ajv's errors, unless `vc` validates against the OB 3.0 AchievementCredential schema. */
export function assertValidOb3(vc: unknown): void {
  if (validate(vc)) return
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`)
  throw new assert.AssertionError({ message: `not a valid OB 3.0 AchievementCredential:\n${errors.join('\n')}`, actual: vc })
}

/** A public key of the club, as a key store's `publicKeys('club:<domain>')` returns them. */
export interface ClubPublicKey {
  kid: string
  publicJwk: JWK
}

export interface ExpectedCredential {
  /** The club's keys; the header's kid must name one of them as `<did>#<kid>`. */
  keys: ClubPublicKey[]
  /** The recipient's e-mail as sent: hashed in the credential, never in plain text (any case). */
  email: string
  /** `expiresAt` of the issuance (ms), or `null`: then there is no `exp` and no `validUntil`. */
  expiresAt?: number | null
  /** The evidence engraved (the public ones), as OB 3.0 Evidence objects, in order. Default none. */
  evidence?: Record<string, unknown>[]
  /** Strings that must appear nowhere in the JWT (private evidence, say). */
  absent?: string[]
}

export interface CheckedCredential {
  header: Record<string, unknown>
  payload: Json
  vc: Json
  /** The status list index, as a number. */
  statusListIndex: number
}

/**
 * Verifies a credential JWT as docs/decisions/0014-signed-credential.md describes it and returns its
 * decoded parts: the signature against the club's key named by the header; the header exactly `{ alg, typ,
 * kid }`; the claims exactly `{ iss, jti, nbf, exp?, vc }` and consistent with `vc`; `vc` valid OB 3.0;
 * the recipient hashed with a salt; only public evidence; a BitstringStatusListEntry.
 */
export async function assertSignedCredential(jwt: string, expected: ExpectedCredential): Promise<CheckedCredential> {
  assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a compact JWS')
  const header = decodeProtectedHeader(jwt) as Record<string, unknown>
  assert.deepStrictEqual(Object.keys(header).sort(), ['alg', 'kid', 'typ'], 'the header has alg, typ and kid only')
  assert.equal(header.alg, 'ES256')
  assert.equal(header.typ, 'JWT')
  const kid = String(header.kid)
  const hash = kid.lastIndexOf('#')
  assert.ok(hash > 0, `kid ${kid} is <did>#<key id>`)
  const did = kid.slice(0, hash)
  const key = expected.keys.find((candidate) => candidate.kid === kid.slice(hash + 1))
  assert.ok(key, `kid ${kid} names a key of the club (${expected.keys.map((k) => k.kid).join(', ')})`)
  const publicKey = await importJWK(key.publicJwk, 'ES256')

  const { payload: bytes } = await compactVerify(jwt, publicKey, { algorithms: ['ES256'] })
  const text = new TextDecoder().decode(bytes)
  const payload = JSON.parse(text) as Json
  const vc = payload.vc as Json

  const expiresAt = expected.expiresAt ?? null
  assert.deepStrictEqual(
    Object.keys(payload).sort(),
    expiresAt === null ? ['iss', 'jti', 'nbf', 'vc'] : ['exp', 'iss', 'jti', 'nbf', 'vc'],
    'the claims are iss, jti, nbf, exp (only with an expiry) and vc',
  )
  assert.equal(payload.iss, did, 'iss is the DID of the kid')
  assert.equal(payload.iss, vc.issuer.id, 'iss === vc.issuer.id')
  assert.equal(payload.jti, vc.id, 'jti === vc.id')
  assert.match(vc.id, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  assert.ok(Number.isInteger(payload.nbf), 'nbf is whole seconds')
  assert.equal(payload.nbf, Date.parse(vc.validFrom) / 1000, 'nbf === validFrom')
  if (expiresAt === null) {
    assert.equal('validUntil' in vc, false, 'no validUntil without an expiry')
  } else {
    assert.ok(Number.isInteger(payload.exp), 'exp is whole seconds')
    assert.equal(payload.exp, Date.parse(vc.validUntil) / 1000, 'exp === validUntil')
    assert.equal(payload.exp, Math.ceil(expiresAt / 1000), 'exp is expiresAt, rounded up to the second')
  }
  // jose's own JWT checks, at a moment the credential is valid.
  await jwtVerify(jwt, publicKey, { algorithms: ['ES256'], currentDate: new Date(payload.nbf * 1000) })

  assertValidOb3(vc)
  // VC 2.0 and OB 3.0.3 first, the OB extensions (credentialSchema's type), clubcred's terms embedded.
  assert.deepStrictEqual(vc['@context'].slice(0, 3), [
    'https://www.w3.org/ns/credentials/v2',
    'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
  ])
  assert.equal(vc['@context'].length, 4)
  assert.equal(vc['@context'][3]['x-partnerOrganizations']['@id'], 'https://clubcred.dev/ns/ob#partnerOrganizations')
  assert.deepStrictEqual(vc.type, ['VerifiableCredential', 'OpenBadgeCredential'])
  assert.deepStrictEqual(vc.credentialSubject.type, ['AchievementSubject'])

  // The recipient: a salted hash of the lower-cased address; the address itself nowhere.
  const identifiers = vc.credentialSubject.identifier as Json[]
  assert.equal(identifiers.length, 1)
  const identity = identifiers[0]!
  assert.deepStrictEqual(Object.keys(identity).sort(), ['hashed', 'identityHash', 'identityType', 'salt', 'type'])
  assert.equal(identity.type, 'IdentityObject')
  assert.equal(identity.identityType, 'emailAddress')
  assert.equal(identity.hashed, true)
  assert.equal(typeof identity.salt, 'string')
  assert.ok(identity.salt.length >= 16, 'a salt of some length')
  const digest = createHash('sha256')
    .update(expected.email.trim().toLowerCase() + identity.salt)
    .digest('hex')
  assert.equal(identity.identityHash, `sha256$${digest}`)
  for (const plain of [expected.email, ...(expected.absent ?? [])]) {
    assert.equal(text.toLowerCase().includes(plain.toLowerCase()), false, `${plain} appears nowhere in the JWT`)
    assert.equal(jwt.includes(plain), false)
  }

  // Only public evidence is engraved.
  if (expected.evidence && expected.evidence.length > 0) assert.deepStrictEqual(vc.evidence, expected.evidence)
  else assert.equal('evidence' in vc, false, 'no evidence engraved')

  // credentialStatus: one BitstringStatusListEntry.
  const status = vc.credentialStatus as Json
  assert.deepStrictEqual(Object.keys(status).sort(), ['id', 'statusListCredential', 'statusListIndex', 'statusPurpose', 'type'])
  assert.equal(status.type, 'BitstringStatusListEntry')
  assert.equal(status.statusPurpose, 'revocation')
  assert.match(status.statusListIndex, /^(0|[1-9]\d*)$/, 'statusListIndex is a decimal string')
  const statusListIndex = Number(status.statusListIndex)
  assert.ok(statusListIndex < 131_072, 'statusListIndex within the list')
  assert.match(status.statusListCredential, /^https?:\/\/\S+\/status-lists\/revocation(\/\d+)?$/)
  assert.equal(status.id, `${status.statusListCredential}#${status.statusListIndex}`)

  return { header, payload, vc, statusListIndex }
}

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import jsonld from 'jsonld'
import { decodeJwt } from 'jose'
import { openApi, type Api } from '../../support/api-harness.ts'
import { assertValidOb3 } from '../../support/ob3-schema.ts'
import { createDesign, legacyPost, newApiKey } from '../../support/legacy-forms.ts'
import type { Json } from '../../support/json.ts'

/**
 * Strict JSON-LD: the 1EdTech validator expands the whole credential before anything else,
 * and every term must be defined by the credential's contexts. Here each credential variant clubcred
 * signs is expanded with `jsonld` in safe mode, which throws on any term that would be dropped or left
 * relative, over an offline document loader of the published contexts vendored in test/fixtures/ob3
 * (SOURCE.md names each). Every credential is a real signed one, read back as a JWT.
 */

const CONTEXTS = fileURLToPath(new URL('../../fixtures/ob3/contexts/', import.meta.url))

/** The published contexts a credential may name, and the vendored copy each URL is answered with. */
const PUBLISHED: Record<string, string> = {
  'https://www.w3.org/ns/credentials/v2': 'w3c_credentials_v2.jsonld',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json': 'ob_v3p0_context-3.0.3.json',
  'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json': 'ob_v3p0_extensions.json',
}

/** The 1EdTech validator answers the 3.0.3 URL with its own copy (two more terms): it must pass too. */
const VALIDATOR_COPY: Record<string, string> = {
  ...PUBLISHED,
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json': 'ob_v3p0_context-3.0.3.1edtech-validator-copy.json',
}

/** An offline loader: a vendored context, or an error naming the URL (nothing is fetched). */
function offlineLoader(files: Record<string, string>) {
  return async (url: string) => {
    const file = files[url]
    if (!file) throw new Error(`no vendored copy of the context ${url}`)
    return { contextUrl: null, documentUrl: url, document: JSON.parse(readFileSync(`${CONTEXTS}${file}`, 'utf8')) }
  }
}

/**
 * Expands `vc` as the 1EdTech validator does: safe mode throws on every undefined or relative term.
 * The error is rethrown naming the event (`relative @type reference`, `invalid property`...) and the term.
 */
/** What jsonld throws: an Error whose `details.event` names what safe mode refused. */
type JsonLdError = Error & { details?: { event?: { code: string; details: unknown } } }

async function expandStrict(vc: unknown, files = PUBLISHED): Promise<Json[]> {
  try {
    return await jsonld.expand(vc, { safe: true, documentLoader: offlineLoader(files) })
  } catch (error) {
    const event = (error as JsonLdError | null)?.details?.event
    if (!event) throw error
    throw new Error(`${(error as JsonLdError).message} ${event.code}: ${JSON.stringify(event.details)}`, { cause: error })
  }
}

const OB = 'https://purl.imsglobal.org/spec/vc/ob/vocab.html#'

let api: Api
after(() => api?.close())

async function ok(method: string, path: string, body?: unknown, status = 200): Promise<Json> {
  const response = await api.call(method, path, body)
  assert.equal(response.status, status, `${method} ${path} answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

const recipient = (n: string, extra: Record<string, unknown> = {}) => ({ externalUserId: n, name: `Member ${n}`, email: `${n}@chess.example`, ...extra })

async function template(body: Record<string, unknown> = {}): Promise<number> {
  const created = await ok(
    'POST',
    '/v2/clubs/chess/achievements',
    {
      name: '체스 입문',
      description: 'Learned the rules.',
      tag: ['chess'],
      criteria: { requirements: [{ type: 'course_complete', description: 'Finish the course', url: 'https://chess.example/course' }] },
      ...body,
    },
    201,
  )
  return created.data.id
}

async function issueV2(achievementFormId: number, recipients: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<number> {
  const issued = await ok('POST', '/v2/clubs/chess/issuances', { achievementFormId, mode: 'none', recipients, ...extra })
  assert.equal(issued.results[0].status, 'issued', JSON.stringify(issued))
  return issued.results[0].resourceId
}

/** Every variant of a credential clubcred signs, by name: the issuance id. */
const variants = new Map<string, number>()
/** The signed credential (`vc` claim of the stored JWT) of every variant. */
const credentials = new Map<string, Json>()

before(async () => {
  api = await openApi()
  variants.set('plain', await issueV2(await template(), [recipient('plain')]))

  const withPartners = await template({ name: 'Co-issued' })
  await api.issuer.achievements.coIssuers.add('chess', withPartners, { name: '대한체스연맹', url: 'https://kchess.example/', isVerified: true })
  await api.issuer.achievements.coIssuers.add('chess', withPartners, { name: 'Go Club', url: 'https://go.example/' })
  variants.set('with co-issuers', await issueV2(withPartners, [recipient('partners')]))

  const evidences = [
    { url: 'https://chess.example/games/1', name: 'Game one', description: 'A won game', isPublic: true },
    { name: 'Only a name', isPublic: true },
    { url: 'https://chess.example/private', name: 'Private', isPublic: false },
  ]
  variants.set('with public evidence', await issueV2(await template({ name: 'Evidence' }), [recipient('evidence', { evidences })]))

  const expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString()
  variants.set('expiring', await issueV2(await template({ name: 'Expiring' }), [recipient('expiring')], { expiresAt }))

  const badge = await createDesign(api, 'badge')
  variants.set('with a badge image', await issueV2(await template({ name: 'Badge', achievementBadgeDesignId: badge }), [recipient('badge')]))

  const v1Form = await ok(
    'POST',
    '/v1/forms',
    {
      name: 'v1 form',
      description: 'Made on v1.',
      tags: ['chess', 'v1'],
      requirements: [{ type: 'score', description: 'Score 80', order: 0 }],
      program: { name: 'Camp', type: 'camp', url: 'https://chess.example/camp', isPublic: true },
    },
    201,
  )
  const v1Issued = await ok('POST', '/v1/achievements', { formId: v1Form.id, recipients: [recipient('v1')] })
  assert.equal(v1Issued.issued.length, 1, JSON.stringify(v1Issued))
  variants.set('issued from a v1 form', v1Issued.issued[0].id)

  const legacy = await legacyPost(api, {
    authorization: `Bearer ${await newApiKey(api)}`,
    body: {
      name: 'Legacy form',
      type: 'award',
      achievementBadgeDesignId: badge,
      tags: ['legacy'],
      prefix: 'LEG',
      requirements: [{ type: 'other', description: 'Anything', order: 0 }],
    },
  })
  assert.equal(legacy.status, 201, legacy.text)
  variants.set('issued from a legacy form', await issueV2(legacy.body.achievementFormId, [recipient('legacy')]))

  await api.issuer.worker.drain()
  for (const [name, issuanceId] of variants) {
    const jwt = (await ok('GET', `/v2/clubs/chess/issuances/${issuanceId}/credential`)).data.jwt as string
    credentials.set(name, decodeJwt<{ vc: Json }>(jwt).vc)
  }
})

describe('every signed credential expands in JSON-LD safe mode over the published contexts', () => {
  it('covers every variant', () => {
    assert.deepEqual(
      [...credentials.keys()],
      ['plain', 'with co-issuers', 'with public evidence', 'expiring', 'with a badge image', 'issued from a v1 form', 'issued from a legacy form'],
    )
    assert.equal(credentials.get('with co-issuers')!.credentialSubject.achievement['x-partnerOrganizations'].length, 3)
    assert.equal(credentials.get('with public evidence')!.evidence.length, 2)
    assert.ok(credentials.get('expiring')!.validUntil)
    assert.ok(credentials.get('with a badge image')!.credentialSubject.achievement.image)
  })

  for (const name of [
    'plain',
    'with co-issuers',
    'with public evidence',
    'expiring',
    'with a badge image',
    'issued from a v1 form',
    'issued from a legacy form',
  ]) {
    it(`${name}: no term is undefined or relative (the spec's contexts and the validator's copy), and it is valid OB 3.0`, async () => {
      const vc = credentials.get(name)!
      const expanded = await expandStrict(vc)
      assert.equal(expanded.length, 1)
      await expandStrict(vc, VALIDATOR_COPY)
      assertValidOb3(vc)
      assertAbsolute(expanded)
    })
  }

  it("the credential schema is typed by the 1EdTech IRI, and the co-issuers by clubcred's terms", async () => {
    const [expanded] = await expandStrict(credentials.get('with co-issuers')!)
    const schema = expanded['https://www.w3.org/2018/credentials#credentialSchema'][0]
    assert.deepEqual(schema['@type'], ['https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019'])
    const subject = expanded['https://www.w3.org/2018/credentials#credentialSubject'][0]
    const achievement = subject[`${OB}achievement`][0]
    const partners = achievement['https://clubcred.dev/ns/ob#partnerOrganizations']
    assert.equal(partners.length, 3)
    const partner = partners.find((p: { '@id': string }) => p['@id'] === 'https://kchess.example/')
    assert.deepEqual(partner['https://clubcred.dev/ns/ob#role'], [{ '@value': 'partner' }])
    assert.deepEqual(partner['https://clubcred.dev/ns/ob#isVerified'], [{ '@value': true }])
  })

  it('safe mode refuses a term no context defines (so the check above can fail)', async () => {
    const vc = structuredClone(credentials.get('plain')!)
    vc.credentialSubject.achievement['x-undefined-term'] = 'x'
    await assert.rejects(expandStrict(vc), /safe mode|Dropping property/i)
  })
})

/** Every property and type of the expansion is an absolute IRI (safe mode checks it; this says where). */
function assertAbsolute(node: unknown, path = '$'): void {
  if (Array.isArray(node)) return node.forEach((item, i) => assertAbsolute(item, `${path}[${i}]`))
  if (node === null || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node)) {
    if (key === '@type') for (const type of [value].flat()) assert.match(String(type), /^[a-z][\w+.-]*:/i, `${path} @type ${type}`)
    else if (!key.startsWith('@')) assert.match(key, /^[a-z][\w+.-]*:/i, `${path} property ${key}`)
    if (key !== '@value') assertAbsolute(value, `${path}.${key}`)
  }
}

/**
 * Property-based fuzzing of every operation of the OpenAPI document the server serves, against the real
 * server process: path parameters, query parameters, headers and bodies generated from the document's
 * schemas, and junk. For every request: never a 5xx; a refused request (4xx) changes no row of any table
 * of the SQLite file; and in the end no stack trace in the log. Fixed seed, bounded runs.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Database from 'better-sqlite3'
import fc from 'fast-check'
import { Agent, request } from 'undici'
import { fromSchema, oddString, type JsonSchema } from '../support/schema-arbitrary.ts'
import { accessToken, basic } from '../support/tokens.ts'
import { adminClubAndClient, errorLines, openAdmin, removeDataDir, startServer, type ServerProcess } from '../support/server.ts'

/** Runs per operation: about 30 operations, so some 750 requests in all (about 20 s on a loaded 2-core machine). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25)
const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>').toString('base64')

/** A path segment, percent-encoded; a lone surrogate (which encodeURIComponent refuses) becomes bytes that are not UTF-8. */
const encodePathSegment = (value: string): string =>
  value
    .split(/([\ud800-\udfff])/u)
    .map((part, i) => (i % 2 === 1 ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('')

interface Known {
  club: string
  template: number
  issuance: number
  credential: string
  design: number
  imageHash: string
  token: string
  apiKey: string
  client: { client_id: string; client_secret: string }
}

describe('fuzzing every operation of the OpenAPI document', () => {
  let server: ServerProcess
  let document: JsonSchema
  let known: Known
  let db: Database.Database
  let agent: Agent

  before(async () => {
    server = await startServer()
    const admin = openAdmin(server.dataDir)
    const client = await adminClubAndClient(admin, 'fuzz')
    await adminClubAndClient(admin, 'other')
    const apiKey = (await admin.legacy.createApiKey('fuzz')).api_key
    await admin.close()
    agent = new Agent({ keepAliveTimeout: 1000, connections: 4 })
    const token = await accessToken(server, client)
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const design = (
      await server.http('/v2/clubs/fuzz/designs', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ kind: 'badge', name: 'b', image: { mediaType: 'image/svg+xml', data: SVG } }),
      })
    ).json.data
    const template = (
      await server.http('/v2/clubs/fuzz/achievements', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Fuzz', description: 'd', achievementBadgeDesignId: design.id }),
      })
    ).json.data
    const issued = await server.http('/v2/clubs/fuzz/issuances', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ achievementFormId: template.id, recipients: [{ name: 'Kim', email: 'kim@example.com' }] }),
    })
    const issuance = issued.json.results[0].resourceId
    let credential: string | null = null
    for (let attempt = 0; attempt < 200 && credential === null; attempt++) {
      credential = (await server.http(`/v2/clubs/fuzz/issuances/${issuance}`, { headers: auth })).json.data.credential?.id ?? null
      if (credential === null) await new Promise((resolve) => setTimeout(resolve, 25))
    }
    assert.ok(credential, 'the credential was signed')
    known = {
      club: 'fuzz',
      template: template.id,
      issuance,
      credential,
      design: design.id,
      imageHash: String(design.imageUrl).split('/').pop()!,
      token,
      apiKey,
      client,
    }
    document = (await server.http('/openapi.json')).json
    db = new Database(join(server.dataDir, 'clubcred.db'), { readonly: true, fileMustExist: true })
  })

  after(async () => {
    db?.close()
    await agent?.close()
    assert.equal(await server.stop(), 0, server.stderr)
    removeDataDir(server.dataDir)
  })

  /** A digest of every row of every table: equal digests, nothing stored. */
  const snapshot = (): string => {
    const hash = createHash('sha256')
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    for (const { name } of tables) {
      hash.update(name)
      for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().iterate())
        hash.update(JSON.stringify(row, (_, value) => (typeof value === 'bigint' ? String(value) : value)))
    }
    return hash.digest('hex')
  }

  /**
   * After an accepted request the signing worker may still be writing (JWTs, then proofs, then the expiry
   * sweep's position past the new issuances, at most 10 s later): wait until the rows stand still and
   * each of those caught up (15 s at most).
   */
  const settled = async (): Promise<void> => {
    let previous = snapshot()
    for (let attempt = 0; attempt < 750; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      const current = snapshot()
      const pending = (
        db
          .prepare(
            `SELECT (SELECT count(*) FROM signing_jobs) + (SELECT count(*) FROM credentials WHERE proof IS NULL)
              + (SELECT count(*) FROM issuances WHERE seq > (SELECT seq FROM expiry_sweeps WHERE name = 'issued')) AS n`,
          )
          .get() as { n: number }
      ).n
      if (current === previous && pending === 0) return
      previous = current
    }
  }

  const pathParam = (name: string): fc.Arbitrary<string> => {
    const valid: Record<string, () => string[]> = {
      clubDomain: () => [known.club],
      domain: () => [known.club],
      id: () => [String(known.template), String(known.issuance), String(known.design)],
      issuanceId: () => [String(known.issuance)],
      credentialId: () => [known.credential],
      hash: () => [known.imageHash],
      listId: () => ['1'],
      tag: () => ['chess'],
    }
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...(valid[name]?.() ?? ['x'])) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'other',
          '0',
          '-1',
          '1e3',
          '00001',
          '99999999999999999999',
          '..',
          '%',
          '%zz',
          '%E0%A4%A',
          '%00',
          'FUZZ',
          known.credential.toUpperCase(),
        ),
      },
      { weight: 2, arbitrary: fc.oneof(fc.string({ maxLength: 30 }), oddString).map(encodePathSegment) },
    )
  }

  /** Header values an HTTP client can send at all (undici refuses controls and surrounding white space). */
  const headerText = fc
    .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 })
    .map((value) => value.trim())
    .filter((value) => value.length > 0)

  const authorization = (auth: string) =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constant(
          auth === 'basic'
            ? basic(known.client.client_id, known.client.client_secret)
            : auth === 'api-key'
              ? `Bearer ${known.apiKey}`
              : `Bearer ${known.token}`,
        ),
      },
      { weight: 1, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'Bearer ',
          'Bearer a.b.c',
          'Basic Og==',
          'Basic !!!',
          `Basic ${Buffer.from('x:y').toString('base64')}`,
          known.apiKey,
          `Bearer ${known.token}x`,
        ),
      },
      { weight: 1, arbitrary: headerText },
    )

  const contentType = (declared: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constant(declared) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          undefined,
          'text/plain',
          'application/json; charset=latin1',
          'application/merge-patch+json',
          'multipart/form-data; boundary=x',
          'application/x-www-form-urlencoded',
          '',
        ),
      },
    )

  const junkBody = fc.oneof(
    fc.constantFrom(
      '',
      '{',
      '[',
      'null',
      '[]',
      '"x"',
      '{"a":',
      '1e999',
      '\ufeff{}',
      '{"__proto__":{"x":1}}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`,
    ),
    fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? ''),
  )

  // '[::1' trips undici's own host parsing; test/node/listener.test.ts sends it on a raw socket.
  const BAD_HOSTS = ['localhost:abc', 'a b', 'x@y', 'localhost:99999', 'fuzz.localhost:1', 'FUZZ.LOCALHOST']

  it('the document lists operations to fuzz', () => {
    assert.ok(Object.keys(document.paths).length >= 25)
  })

  // One property per operation, so a failure names it. Operations are read when the suite runs.
  it('no operation answers a 5xx, and no refused request stores anything', async (t) => {
    let index = 0
    for (const [template, operations] of Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        index++
        if (process.env.FUZZ_ONLY && !`${method.toUpperCase()} ${template}`.includes(process.env.FUZZ_ONLY)) continue
        await t.test(`${method.toUpperCase()} ${template}`, async () => {
          const security = (operation.security as Record<string, string[]>[] | undefined)?.[0] ?? {}
          const auth = 'clientBasic' in security ? 'basic' : 'legacyApiKey' in security ? 'api-key' : 'oauth2' in security ? 'bearer' : 'none'
          const params = (operation.parameters ?? []) as { name: string; in: string }[]
          const pathNames = params.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name)
          const queryNames = params.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)
          const bodyContent = operation.requestBody?.content as Record<string, { schema: JsonSchema }> | undefined
          const [declaredType, bodySchema] = bodyContent
            ? (Object.entries(bodyContent)[0] as [string, { schema: JsonSchema }])
            : ['application/json', undefined]
          const recipient = document.components.schemas.Recipient
          const body = bodySchema
            ? fc.oneof(
                {
                  weight: 6,
                  arbitrary: fromSchema(bodySchema.schema, document, { recipients: { type: 'array', items: recipient, maxItems: 4 } }).map((value) =>
                    declaredType === 'application/json' ? JSON.stringify(value) : new URLSearchParams(value as Record<string, string>).toString(),
                  ),
                },
                { weight: 2, arbitrary: junkBody },
              )
            : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: junkBody })
          const requestArbitrary = fc.record({
            path: fc.tuple(...pathNames.map(pathParam)).map((values) => pathNames.reduce((path, name, i) => path.replace(`{${name}}`, values[i]!), template)),
            query: fc.array(
              fc.tuple(
                fc.oneof(fc.constantFrom(...(queryNames.length > 0 ? queryNames : ['q'])), fc.string({ maxLength: 8 })),
                fc.oneof(fc.constantFrom('1', '100', '101', '0', '-1', 'pdf', 'png', 'svg', 'x', ''), fc.string({ maxLength: 20 }), oddString),
              ),
              { maxLength: 3 },
            ),
            method: fc.oneof(
              { weight: 12, arbitrary: fc.constant(method.toUpperCase()) },
              { weight: 1, arbitrary: fc.constantFrom('HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'POST', 'GET') },
            ),
            authorization: authorization(auth),
            contentType: contentType(declaredType),
            idempotencyKey: fc.oneof(
              { weight: 3, arbitrary: fc.constant(undefined) },
              { weight: 2, arbitrary: fc.constantFrom('k1', 'k2') },
              { weight: 1, arbitrary: headerText },
            ),
            host: fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...BAD_HOSTS) }),
            body,
          })

          await fc.assert(
            fc.asyncProperty(requestArbitrary, async (generated) => {
              const search = new URLSearchParams(generated.query).toString()
              const headers: Record<string, string> = {}
              if (generated.authorization !== undefined) headers.authorization = generated.authorization
              if (generated.contentType !== undefined && generated.body !== undefined) headers['content-type'] = generated.contentType
              if (generated.idempotencyKey !== undefined) headers['idempotency-key'] = generated.idempotencyKey
              if (generated.host !== undefined) headers.host = generated.host
              const hasBody = generated.body !== undefined && !['GET', 'HEAD'].includes(generated.method)
              const before = snapshot()
              if (process.env.FUZZ_DEBUG)
                console.log('>', generated.method, generated.path, JSON.stringify(headers).slice(0, 200), String(generated.body).slice(0, 100))
              const response = await request(`${server.url}${generated.path}${search ? `?${search}` : ''}`, {
                method: generated.method as 'GET',
                headers,
                body: hasBody ? generated.body : undefined,
                dispatcher: agent,
                // A hung request fails here, named, instead of stalling the suite for undici's 300 s.
                headersTimeout: 15_000,
                bodyTimeout: 15_000,
              })
              const text = await response.body.text()
              if (process.env.FUZZ_DEBUG) console.log(generated.method, generated.path, response.statusCode)
              const label = `${generated.method} ${generated.path}?${search} -> ${response.statusCode} ${text.slice(0, 300)}`
              assert.ok(response.statusCode < 500, label)
              assert.equal(response.headers['x-content-type-options'], 'nosniff', label)
              if (response.statusCode >= 400) assert.equal(snapshot(), before, `a refused request stored something: ${label}`)
              else await settled()
            }),
            { seed: SEED + index, numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
          )
        })
      }
    }
    assert.doesNotMatch(server.stderr, /\n\s+at /, 'no stack trace in the log')
    assert.doesNotMatch(server.stderr, /failed:/, 'no request ended in a 500')
    assert.deepEqual(errorLines(server), [], 'no request ended in a 500, no stack trace in the log')
  })
})

import assert from 'node:assert/strict'
import { after, before, describe, it, mock } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import {
  REASON_PHRASES,
  assertLegacyError,
  createDesign,
  legacyPost,
  newApiKey,
  svgBase64,
  templateIds,
  type LegacyRequest,
  type LegacyResponse,
} from '../../support/legacy-forms.ts'
import { LEGACY_MESSAGES, legacyErrorResponse } from '../../../adapters/http/legacy-error.ts'
import { ProblemError } from '../../../core/errors.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'
import type { Json } from '../../support/json.ts'

/**
 * Legacy form creation (docs/api.md §2.12, §4.13, §5 item 7, §7 legacy table, §8; docs/decisions/0023-legacy-form-creation.md):
 * every row of the legacy error table, every field rule of §2.12, and the created
 * form as an ordinary template that v2 and v1 read.
 */

let api: Api
let key: string
let badge: number
let certificate: number
/** A badge design of another club: it exists, but not for this key's club. */
let otherClubBadge: number

before(async () => {
  api = await openApi()
  key = await newApiKey(api)
  badge = await createDesign(api, 'badge')
  certificate = await createDesign(api, 'certificate')
  await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
  otherClubBadge = (await api.issuer.designs.create('go', { kind: 'badge', name: 'go badge', image: { mediaType: 'image/svg+xml', data: svgBase64('go') } })).id
})
after(async () => {
  await api.close()
})

const bearer = () => `Bearer ${key}`

/** A minimal valid body, with overrides; `undefined` removes a member. */
function form(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { name: '체스 입문', type: 'completion', achievementBadgeDesignId: badge, ...overrides }
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name]
  return body
}

/** Posts with the key and asserts the 201 answer of docs/api.md §4.13; returns the form id. */
async function created(body: Record<string, unknown>, authorization = bearer()): Promise<number> {
  const response = await legacyPost(api, { authorization, body })
  assertCreated(response)
  return response.body.achievementFormId
}

function assertCreated(response: LegacyResponse): void {
  assert.equal(response.status, 201, `expected 201, got ${response.status} ${response.text}`)
  assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/)
  assert.deepStrictEqual(Object.keys(response.body).sort(), ['achievementFormId', 'message', 'statusCode'])
  assert.equal(response.body.statusCode, 201)
  assert.equal(typeof response.body.message, 'string')
  assert.match(response.body.message, /[가-힣]/, 'the message is Korean text')
  assert.ok(Number.isSafeInteger(response.body.achievementFormId) && response.body.achievementFormId > 0, response.text)
}

async function readV1(id: number): Promise<Json> {
  const response = await api.call('GET', `/v1/forms/${id}`)
  assert.equal(response.status, 200, `v1 read answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

async function readV2(id: number): Promise<TemplateView> {
  const response = await api.call('GET', `/v2/clubs/chess/achievements/${id}`)
  assert.equal(response.status, 200, `v2 read answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.data
}

interface Row {
  /** What is wrong with the request. */
  why: string
  status: 400 | 401 | 404
  /** The message the answer starts with (or matches). */
  message: () => string | RegExp
  request: () => LegacyRequest
}

const generic = () => LEGACY_MESSAGES.invalid
const withKey =
  (body: unknown, extra: Partial<LegacyRequest> = {}) =>
  (): LegacyRequest => ({ authorization: bearer(), body, ...extra })
const withForm = (overrides: Record<string, unknown>) => (): LegacyRequest => ({ authorization: bearer(), body: form(overrides) })

/** Every row of the legacy error table of docs/api.md §7.5, with the ways each condition is reached. */
const TABLE: Row[] = [
  // 400, generic invalid request: a required field missing...
  { why: 'name is missing', status: 400, message: generic, request: withForm({ name: undefined }) },
  { why: 'name is blank', status: 400, message: generic, request: withForm({ name: '   ' }) },
  { why: 'name is not a string', status: 400, message: generic, request: withForm({ name: 42 }) },
  { why: 'name is longer than 200 characters', status: 400, message: generic, request: withForm({ name: 'n'.repeat(201) }) },
  { why: 'type is missing', status: 400, message: generic, request: withForm({ type: undefined }) },
  { why: 'achievementBadgeDesignId is missing', status: 400, message: generic, request: withForm({ achievementBadgeDesignId: undefined }) },
  { why: 'achievementBadgeDesignId is null', status: 400, message: generic, request: withForm({ achievementBadgeDesignId: null }) },
  // ...or invalid
  { why: 'type is not in the enum', status: 400, message: generic, request: withForm({ type: 'workshop' }) },
  { why: 'type differs from the enum in case', status: 400, message: generic, request: withForm({ type: 'Completion' }) },
  { why: 'achievementBadgeDesignId is not an integer', status: 400, message: generic, request: withForm({ achievementBadgeDesignId: 1.5 }) },
  {
    why: 'achievementBadgeDesignId is a numeric string',
    status: 400,
    message: generic,
    request: () => withForm({ achievementBadgeDesignId: String(badge) })(),
  },
  { why: 'achievementBadgeDesignId is 0', status: 400, message: generic, request: withForm({ achievementBadgeDesignId: 0 }) },
  { why: 'achievementCertificateDesignId is not an integer', status: 400, message: generic, request: withForm({ achievementCertificateDesignId: 2.5 }) },
  { why: 'tags has a non-string element', status: 400, message: generic, request: withForm({ tags: ['chess', 7] }) },
  { why: 'tags is not an array', status: 400, message: generic, request: withForm({ tags: 'chess' }) },
  { why: 'a tag contains a comma (the tag rule every surface shares)', status: 400, message: generic, request: withForm({ tags: ['chess, go'] }) },
  { why: 'course_begin_at is not a date', status: 400, message: generic, request: withForm({ course_begin_at: 'yesterday' }) },
  { why: 'course_begin_at has month 13', status: 400, message: generic, request: withForm({ course_begin_at: '2024-13-01T09:00:00Z' }) },
  { why: 'course_begin_at names a day the month does not have', status: 400, message: generic, request: withForm({ course_begin_at: '2024-02-30T09:00:00Z' }) },
  { why: 'course_end_at has hour 25', status: 400, message: generic, request: withForm({ course_end_at: '2024-03-01T25:00:00Z' }) },
  { why: 'course_end_at is a number', status: 400, message: generic, request: withForm({ course_end_at: 1709283600000 }) },
  { why: 'a requirement order is -1', status: 400, message: generic, request: withForm({ requirements: [{ description: 'Play ten games', order: -1 }] }) },
  { why: 'a requirement order is 1.5', status: 400, message: generic, request: withForm({ requirements: [{ description: 'Play ten games', order: 1.5 }] }) },
  {
    why: 'a requirement order is a string',
    status: 400,
    message: generic,
    request: withForm({ requirements: [{ description: 'Play ten games', order: '1' }] }),
  },
  { why: 'a requirement has neither description nor url', status: 400, message: generic, request: withForm({ requirements: [{ type: 'score', order: 0 }] }) },
  {
    why: 'a requirement type is not one of the 16 codes',
    status: 400,
    message: generic,
    request: withForm({ requirements: [{ type: 'juggling', description: 'x' }] }),
  },
  { why: 'requirements is not an array', status: 400, message: generic, request: withForm({ requirements: { description: 'x' } }) },
  { why: 'program_url is not a URL', status: 400, message: generic, request: withForm({ program_url: 'chess club site' }) },
  { why: 'the body is not JSON', status: 400, message: generic, request: withKey('{"name": "체스", "type": ') },
  { why: 'the body is a JSON array', status: 400, message: generic, request: withKey('[]') },
  { why: 'the body is JSON null', status: 400, message: generic, request: withKey('null') },
  { why: 'the body is empty', status: 400, message: generic, request: withKey('') },
  { why: 'the body is not sent as JSON', status: 400, message: generic, request: () => withKey(JSON.stringify(form()), { contentType: 'text/plain' })() },
  { why: 'the body is larger than the body limit', status: 400, message: generic, request: withForm({ description: 'x'.repeat(1_100_000) }) },
  // 400, prefix letters only
  { why: 'prefix has a digit (AB1)', status: 400, message: () => LEGACY_MESSAGES.prefixLetters, request: withForm({ prefix: 'AB1' }) },
  { why: 'prefix is Hangul (한글)', status: 400, message: () => LEGACY_MESSAGES.prefixLetters, request: withForm({ prefix: '한글' }) },
  { why: 'prefix has a hyphen (A-B)', status: 400, message: () => LEGACY_MESSAGES.prefixLetters, request: withForm({ prefix: 'A-B' }) },
  { why: 'prefix has a space (A B)', status: 400, message: () => LEGACY_MESSAGES.prefixLetters, request: withForm({ prefix: 'A B' }) },
  // 400, prefix at most 5
  { why: 'prefix has 6 letters (ABCDEF)', status: 400, message: () => LEGACY_MESSAGES.prefixLength, request: withForm({ prefix: 'ABCDEF' }) },
  { why: 'prefix has 10 letters', status: 400, message: () => LEGACY_MESSAGES.prefixLength, request: withForm({ prefix: 'ABCDEFGHIJ' }) },
  // 401 Invalid token: the key is checked before the body
  { why: 'there is no Authorization header', status: 401, message: () => /^Invalid token$/, request: () => ({ authorization: null, body: form() }) },
  {
    why: 'the key is well formed but unknown',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: `Bearer cck_0123456789abcdef.${'A'.repeat(43)}`, body: form() }),
  },
  {
    why: 'the key id exists but the secret is wrong',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, body: form() }),
  },
  { why: 'the key is malformed', status: 401, message: () => /^Invalid token$/, request: () => ({ authorization: 'Bearer not-a-key', body: form() }) },
  {
    why: 'the key is cut short',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: `Bearer ${key.slice(0, -2)}`, body: form() }),
  },
  {
    why: 'Authorization is "Bearer" with nothing after it',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: 'Bearer', body: form() }),
  },
  {
    why: 'Authorization is "Bearer " with only a space after it',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: 'Bearer   ', body: form() }),
  },
  { why: 'Authorization is empty', status: 401, message: () => /^Invalid token$/, request: () => ({ authorization: '', body: form() }) },
  {
    why: 'the key is sent with the Basic scheme',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: `Basic ${key}`, body: form() }),
  },
  {
    why: 'the credential is a club API access token, not an API key',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: `Bearer ${api.token}`, body: form() }),
  },
  {
    why: 'the key is bad and the body is invalid too',
    status: 401,
    message: () => /^Invalid token$/,
    request: () => ({ authorization: 'Bearer nope', body: 'not json' }),
  },
  // 404 certificate design not found
  {
    why: 'achievementCertificateDesignId is unknown',
    status: 404,
    message: () => LEGACY_MESSAGES.certificateDesign,
    request: withForm({ achievementCertificateDesignId: 999_999 }),
  },
  {
    why: 'achievementCertificateDesignId names a badge design',
    status: 404,
    message: () => LEGACY_MESSAGES.certificateDesign,
    request: () => withForm({ achievementCertificateDesignId: badge })(),
  },
  // 404 badge design not found
  {
    why: 'achievementBadgeDesignId is unknown',
    status: 404,
    message: () => LEGACY_MESSAGES.badgeDesign,
    request: withForm({ achievementBadgeDesignId: 999_999 }),
  },
  {
    why: 'achievementBadgeDesignId names a certificate design',
    status: 404,
    message: () => LEGACY_MESSAGES.badgeDesign,
    request: () => withForm({ achievementBadgeDesignId: certificate })(),
  },
  {
    why: "achievementBadgeDesignId names another club's badge design",
    status: 404,
    message: () => LEGACY_MESSAGES.badgeDesign,
    request: () => withForm({ achievementBadgeDesignId: otherClubBadge })(),
  },
]

describe('legacy form creation refuses with the legacy error table, { statusCode, message, error }, and creates nothing (docs/api.md §7.5)', () => {
  for (const row of TABLE) {
    it(`answers ${row.status} ${REASON_PHRASES[row.status]} when ${row.why}`, async () => {
      const before = await templateIds(api)
      const response = await legacyPost(api, row.request())
      assertLegacyError(response, row.status, row.message())
      if (row.status !== 401) assert.match(response.body.message, /[가-힣]/, 'the message is Korean text, like the success message')
      assert.deepStrictEqual(await templateIds(api), before, 'nothing was created')
    })
  }

  it('answers 404 with the invalid form id text when the domain information is incorrect: the core error for an unknown club, mapped by legacyErrorResponse (not reachable over HTTP: keys are bound to clubs and clubs are never deleted)', async () => {
    const before = await templateIds(api)
    const error = await api.issuer.legacy.createForm('no-such-club', form() as never).then(
      () => assert.fail('a form was created for a club that does not exist'),
      (thrown: unknown) => thrown,
    )
    assert.ok(error instanceof ProblemError, String(error))
    assert.equal(error.code, 'club-not-found')
    const onError = mock.fn()
    const response = legacyErrorResponse(error, onError)
    assertLegacyError(
      { status: response.status, headers: response.headers, text: await response.clone().text(), body: await response.json() },
      404,
      LEGACY_MESSAGES.invalidForm,
    )
    assert.match(LEGACY_MESSAGES.invalidForm, /[가-힣]/)
    assert.equal(onError.mock.callCount(), 0, 'an expected 404 is not reported as a server error')
    assert.deepStrictEqual(await templateIds(api), before, 'nothing was created')
  })

  it('answers 500 with the unexpected error text for any other error, reports it, and leaks nothing of it (legacyErrorResponse)', async () => {
    for (const error of [
      new Error('disk on fire at /var/lib/clubcred'),
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      'a thrown string',
      new ProblemError('rate-limited'),
    ]) {
      const onError = mock.fn()
      const response = legacyErrorResponse(error, onError)
      const text = await response.text()
      assertLegacyError({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 500, LEGACY_MESSAGES.unexpected)
      assert.match(JSON.parse(text).message, /[가-힣]/)
      assert.doesNotMatch(text, /disk on fire|Cannot read|thrown string|rate/, 'the cause stays on the server')
      assert.equal(onError.mock.callCount(), 1, 'the server error is reported once')
      assert.equal(onError.mock.calls[0]!.arguments[0], error)
    }
  })

  it('gives each condition of the table its own message', () => {
    const messages = [
      LEGACY_MESSAGES.invalid,
      LEGACY_MESSAGES.prefixLetters,
      LEGACY_MESSAGES.prefixLength,
      LEGACY_MESSAGES.invalidToken,
      LEGACY_MESSAGES.invalidForm,
      LEGACY_MESSAGES.certificateDesign,
      LEGACY_MESSAGES.badgeDesign,
      LEGACY_MESSAGES.unexpected,
    ]
    assert.equal(new Set(messages).size, messages.length)
    for (const message of messages.slice(1)) assert.ok(!message.startsWith(LEGACY_MESSAGES.invalid), `${message} is told apart from the generic text`)
    assert.match(LEGACY_MESSAGES.prefixLength, /5/, 'the length message names the limit')
  })
})

describe('legacy form creation answers 201 { statusCode, message, achievementFormId } (docs/api.md §4.13, §5 item 7)', () => {
  it('accepts Authorization: Bearer <api key>', async () => {
    const before = await templateIds(api)
    const id = await created(form({ name: 'Bearer form' }), `Bearer ${key}`)
    assert.deepStrictEqual(await templateIds(api), [id, ...before], 'exactly one template was created')
  })

  it('accepts the bare api key in Authorization', async () => {
    const before = await templateIds(api)
    const id = await created(form({ name: 'Bare key form' }), key)
    assert.deepStrictEqual(await templateIds(api), [id, ...before], 'exactly one template was created')
  })

  it('creates a form of the key’s club only: a key of another club creates there, not here', async () => {
    const goKey = await newApiKey(api, 'go')
    const before = await templateIds(api)
    const id = await created(form({ name: 'Go form', achievementBadgeDesignId: otherClubBadge }), `Bearer ${goKey}`)
    assert.deepStrictEqual(await templateIds(api), before, 'nothing was created in chess')
    assert.equal((await api.issuer.achievements.read('go', id)).name, 'Go form')
  })

  it('creates a form that v2 and v1 read with the same name, tags, requirements in `order` order, program and prefix', async () => {
    const id = await created({
      name: '체스 입문',
      description: '기본 규칙과 오프닝을 배웠습니다.',
      type: 'activity',
      tags: ['체스', '오프닝'],
      prefix: 'CHS',
      program_name: '여름 체스 캠프',
      program_type: 'camp',
      program_url: 'https://chess.example/camp',
      course_begin_at: '2024-07-01T09:00:00+09:00',
      course_end_at: '2024-07-05T18:00:00+09:00',
      achievementBadgeDesignId: badge,
      achievementCertificateDesignId: certificate,
      requirements: [
        { type: 'score', description: '시험 80점 이상', url: 'https://chess.example/exam', order: 2 },
        { type: 'course_complete', description: '강의 5회 수강', order: 0 },
        { type: 'presentation_publication', url: 'https://chess.example/talks', order: 1 },
      ],
    })
    const expected = [
      { type: 'course_complete', description: '강의 5회 수강', url: null, order: 0 },
      { type: 'presentation_publication', description: null, url: 'https://chess.example/talks', order: 1 },
      { type: 'score', description: '시험 80점 이상', url: 'https://chess.example/exam', order: 2 },
    ]

    const v2 = await readV2(id)
    assert.equal(v2.id, id)
    assert.equal(v2.name, '체스 입문')
    assert.equal(v2.description, '기본 규칙과 오프닝을 배웠습니다.')
    assert.equal(v2.type, 'activity')
    assert.deepStrictEqual(v2.tag, ['체스', '오프닝'])
    assert.deepStrictEqual(
      v2.criteria.requirements.map(({ type, description, url }: Record<string, unknown>) => ({ type, description, url })),
      expected.map(({ order: _order, ...requirement }) => requirement),
    )
    assert.match(v2.criteria.narrative, /^1\. 강의 5회 수강\n2\. .*https:\/\/chess\.example\/talks.*\n3\. 시험 80점 이상 \(https:\/\/chess\.example\/exam\)$/)
    assert.deepStrictEqual(v2.program, { name: '여름 체스 캠프', url: 'https://chess.example/camp', isPublic: true })
    assert.equal(v2.achievementBadgeDesignId, badge)
    assert.equal(v2.achievementCertificateDesignId, certificate)
    assert.equal(typeof v2.image, 'string', 'the badge design gives the template its image')

    const v1 = await readV1(id)
    assert.equal(v1.id, id)
    assert.equal(v1.name, v2.name)
    assert.equal(v1.description, v2.description)
    assert.equal(v1.type, 'activity')
    assert.deepStrictEqual(v1.tags, v2.tag)
    assert.deepStrictEqual(
      v1.requirements.map(({ type, description, url, order }: Record<string, unknown>) => ({ type, description, url, order })),
      expected,
    )
    assert.deepStrictEqual(
      v1.requirements.map((requirement: { id: number }) => requirement.id),
      v2.criteria.requirements.map((requirement: { id: number }) => requirement.id),
      'the same requirements, by id, in the same order',
    )
    assert.deepStrictEqual(v1.program, { name: '여름 체스 캠프', type: 'camp', url: 'https://chess.example/camp', isPublic: true })
    assert.equal(v1.prefix, 'CHS')
    assert.equal(v1.courseBeginAt, '2024-07-01T09:00:00+09:00')
    assert.equal(v1.courseEndAt, '2024-07-05T18:00:00+09:00')
    assert.equal(v1.achievementBadgeDesignId, badge)
    assert.equal(v1.achievementCertificateDesignId, certificate)
  })

  it('gives a form sent without a description its name as the description (every template has one)', async () => {
    const v2 = await readV2(await created(form({ name: '설명 없는 양식' })))
    assert.equal(v2.description, '설명 없는 양식')
    assert.equal(v2.imprintDescription, '설명 없는 양식')
  })

  it('ignores members the legacy API never knew, as it did', async () => {
    const v2 = await readV2(await created(form({ name: 'Extra members', color: 'blue', institutionId: 7 })))
    assert.equal(v2.name, 'Extra members')
  })
})

describe('the legacy field rules of docs/api.md §2.12 accept every valid value', () => {
  for (const type of ['completion', 'activity', 'license', 'career', 'award', 'recommendation', 'membership', 'degree']) {
    it(`accepts type ${type} and stores it as the template type`, async () => {
      const id = await created(form({ type }))
      assert.equal((await readV2(id)).type, type)
      assert.equal((await readV1(id)).type, type)
    })
  }

  for (const [prefix, stored] of [
    ['', null],
    ['A', 'A'],
    ['abc', 'abc'],
    ['AbCdE', 'AbCdE'],
    ['ABCDE', 'ABCDE'],
  ] as const) {
    it(`accepts prefix ${JSON.stringify(prefix)} (letters only, at most 5) and stores it as ${JSON.stringify(stored)}`, async () => {
      assert.equal((await readV1(await created(form({ prefix })))).prefix, stored)
    })
  }

  it('accepts a form without a prefix and stores none', async () => {
    assert.equal((await readV1(await created(form()))).prefix, null)
  })

  for (const date of [
    '2024-03-01T09:00:00Z',
    '2024-03-01T09:00:00.123Z',
    '2024-03-01T18:00:00+09:00',
    '2024-02-29T23:59:59.999999-05:00',
    '1999-12-31T00:00:00+00:00',
  ]) {
    it(`accepts the ISO 8601 date-time ${date} as course_begin_at and course_end_at and stores it as sent`, async () => {
      const v1 = await readV1(await created(form({ course_begin_at: date, course_end_at: date })))
      assert.equal(v1.courseBeginAt, date)
      assert.equal(v1.courseEndAt, date)
    })
  }

  it('accepts a form without course dates and stores none', async () => {
    const v1 = await readV1(await created(form()))
    assert.equal(v1.courseBeginAt, null)
    assert.equal(v1.courseEndAt, null)
  })

  it('accepts integer design ids: a badge design alone, the certificate design none', async () => {
    const id = await created(form())
    const v1 = await readV1(id)
    assert.equal(v1.achievementBadgeDesignId, badge)
    assert.equal(v1.achievementCertificateDesignId, null)
    assert.equal((await readV2(id)).achievementBadgeDesignId, badge)
  })

  it('accepts integer design ids: a badge design and a certificate design', async () => {
    const id = await created(form({ achievementCertificateDesignId: certificate }))
    const v2 = await readV2(id)
    assert.equal(v2.achievementBadgeDesignId, badge)
    assert.equal(v2.achievementCertificateDesignId, certificate)
  })

  it('accepts tags of strings, stored trimmed and de-duplicated like on every surface', async () => {
    const v2 = await readV2(await created(form({ tags: ['체스', ' 오프닝 ', '체스', 'endgame'] })))
    assert.deepStrictEqual(v2.tag, ['체스', '오프닝', 'endgame'])
  })

  it('accepts an empty tags array and stores no tags', async () => {
    assert.deepStrictEqual((await readV2(await created(form({ tags: [] })))).tag, [])
  })

  it('accepts requirement order 0 and any larger integer, and reads requirements by order ascending', async () => {
    const v1 = await readV1(
      await created(
        form({
          requirements: [
            { description: 'third', order: 1000 },
            { description: 'first', order: 0 },
            { description: 'second', order: 7 },
          ],
        }),
      ),
    )
    assert.deepStrictEqual(
      v1.requirements.map(({ description, order }: Record<string, unknown>) => ({ description, order })),
      [
        { description: 'first', order: 0 },
        { description: 'second', order: 7 },
        { description: 'third', order: 1000 },
      ],
    )
  })

  it('reads requirements of equal order by id, that is in the order sent (docs/api.md §4.10 rule 8)', async () => {
    const id = await created(
      form({
        requirements: [
          { description: 'b1', order: 1 },
          { description: 'a0', order: 0 },
          { description: 'b2', order: 1 },
          { description: 'a1', order: 0 },
        ],
      }),
    )
    const v1 = await readV1(id)
    assert.deepStrictEqual(
      v1.requirements.map((requirement: { description: string }) => requirement.description),
      ['a0', 'a1', 'b1', 'b2'],
    )
    const ids = v1.requirements.map((requirement: { id: number }) => requirement.id)
    assert.ok(ids[0] < ids[1] && ids[2] < ids[3], `ties ordered by id: ${ids}`)
    assert.match((await readV2(id)).criteria.narrative, /^1\. a0\n2\. a1\n3\. b1\n4\. b2$/)
  })

  it('accepts requirements without order and keeps them in the order sent', async () => {
    const v1 = await readV1(
      await created(form({ requirements: [{ description: 'one' }, { url: 'https://chess.example/two' }, { description: 'three', type: 'other' }] })),
    )
    assert.deepStrictEqual(
      v1.requirements.map(({ description, url }: Record<string, unknown>) => description ?? url),
      ['one', 'https://chess.example/two', 'three'],
    )
  })

  it('counts a name of 200 characters outside the BMP as 200 characters, as v2 does', async () => {
    const name = '😀'.repeat(200)
    assert.equal(name.length, 400, 'UTF-16 units are twice the characters')
    const v2 = await readV2(await created(form({ name })))
    assert.equal(v2.name, name)
  })
})

import assert from 'node:assert/strict'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import { createDesign, templateIds } from '../../support/legacy-forms.ts'
import { assertProblem, assertValidation } from '../../support/achievement-api.ts'
import { REQUIREMENT_TYPES } from '../../../core/achievements/template.ts'
import { SCOPE_NAMES, type ScopeName } from '../../../core/scopes.ts'
import { clientCredentialsGrant } from '../../support/tokens.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'
import type { Json } from '../../support/json.ts'

/**
 * The v1 contract (docs/api.md §4.12, §9; docs/decisions/0022-v1.md): v1 answers only ever gain keys, so every
 * v1 response shape is pinned here, key by key, with the type of each value. Removing or renaming a key
 * fails; adding one fails too, on purpose, until the pinned shape below is extended with it.
 * Also: v1 writes follow the v2 rules, `order` drives requirement order, scopes, and one club per token.
 */

// ---------------------------------------------------------------------------------------------------
// The pinned shapes.

type Primitive = 'string' | 'number' | 'boolean'
class ArrayOf {
  constructor(readonly item: Shape) {}
}
class Tuple {
  constructor(readonly items: readonly Shape[]) {}
}
class Nullable {
  constructor(readonly shape: Shape) {}
}
type Shape = Primitive | ArrayOf | Tuple | Nullable | { readonly [key: string]: Shape }

/** An array whose every item has this shape (the fixture must hold at least one item). */
const arrayOf = (item: Shape) => new ArrayOf(item)
/** An array of exactly these items, by position (for items whose shape varies, such as failed[].error). */
const tuple = (...items: Shape[]) => new Tuple(items)
/** `null`, or this shape. */
const nullable = (shape: Shape) => new Nullable(shape)

const V1_REQUIREMENT = { id: 'number', type: nullable('string'), description: nullable('string'), url: nullable('string'), order: 'number' } as const

/** GET /v1/forms/{id}, and the answers of POST /v1/forms and PATCH /v1/forms/{id}. */
const V1_FORM: Shape = {
  id: 'number',
  name: 'string',
  nameEn: nullable('string'),
  type: 'string',
  description: 'string',
  descriptionEn: nullable('string'),
  imprintDescription: 'string',
  imprintDescriptionEn: nullable('string'),
  tags: arrayOf('string'),
  prefix: nullable('string'),
  program: nullable({ name: nullable('string'), type: nullable('string'), url: nullable('string'), isPublic: 'boolean' }),
  courseBeginAt: nullable('string'),
  courseEndAt: nullable('string'),
  achievementBadgeDesignId: nullable('number'),
  achievementCertificateDesignId: nullable('number'),
  requirements: arrayOf(V1_REQUIREMENT),
  institutions: arrayOf({ name: 'string', role: 'string', isVerified: 'boolean' }),
  issuedCount: 'number',
  createdAt: 'string',
  updatedAt: 'string',
}

/**
 * POST /v1/achievements, for the fixture below: one recipient issued; failed[] holds, in request order,
 * one that already holds the form, a repeat within the request, and an invalid entry.
 */
const V1_BULK_ISSUE: Shape = {
  issued: arrayOf({ id: 'number', ref: 'string' }),
  failed: tuple(
    { ref: 'string', status: 'string', error: { code: 'string', message: 'string', resourceId: 'number' } },
    { ref: 'string', status: 'string', error: { code: 'string', message: 'string' } },
    { ref: 'string', status: 'string', error: { code: 'string', message: 'string', path: 'string' } },
  ),
}

/** GET /v1/achievements/{id}. */
const V1_ISSUANCE: Shape = {
  id: 'number',
  formId: 'number',
  status: 'string',
  recipient: { externalUserId: nullable('string'), name: 'string', email: 'string' },
  createdAt: 'string',
  expiresAt: nullable('string'),
  revokedAt: nullable('string'),
  form: {
    id: 'number',
    name: 'string',
    nameEn: nullable('string'),
    description: 'string',
    descriptionEn: nullable('string'),
    requirements: arrayOf({ id: 'number', type: nullable('string'), description: nullable('string'), url: nullable('string') }),
  },
  evidences: arrayOf({ url: 'string', name: nullable('string'), description: nullable('string'), isPublic: 'boolean' }),
  credential: nullable({ id: 'string', shareUrl: 'string', verifyUrl: 'string' }),
}

// ---------------------------------------------------------------------------------------------------
// Comparing a value with a pinned shape.

interface ShapeDiff {
  /** Keys the response no longer has. */
  removed: string[]
  /** Keys the response has that the pin does not. */
  added: string[]
  /** Values of another type than pinned. */
  changed: string[]
}

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

function diffShape(shape: Shape, value: unknown, path = '$', diff: ShapeDiff = { removed: [], added: [], changed: [] }): ShapeDiff {
  if (shape instanceof Nullable) {
    if (value !== null) diffShape(shape.shape, value, path, diff)
  } else if (typeof shape === 'string') {
    if (kindOf(value) !== shape) diff.changed.push(`${path}: pinned ${shape}, got ${kindOf(value)}`)
  } else if (shape instanceof ArrayOf) {
    if (!Array.isArray(value)) diff.changed.push(`${path}: pinned array, got ${kindOf(value)}`)
    else if (value.length === 0) diff.changed.push(`${path}: pinned array is empty in the fixture, so its items go unchecked; give the fixture an item`)
    else value.forEach((item, index) => diffShape(shape.item, item, `${path}[${index}]`, diff))
  } else if (shape instanceof Tuple) {
    if (!Array.isArray(value)) diff.changed.push(`${path}: pinned array, got ${kindOf(value)}`)
    else if (value.length !== shape.items.length) diff.changed.push(`${path}: pinned ${shape.items.length} items, got ${value.length}`)
    else value.forEach((item, index) => diffShape(shape.items[index]!, item, `${path}[${index}]`, diff))
  } else if (kindOf(value) !== 'object') {
    diff.changed.push(`${path}: pinned object, got ${kindOf(value)}`)
  } else {
    const object = value as Record<string, unknown>
    for (const key of Object.keys(shape)) {
      if (!Object.hasOwn(object, key)) diff.removed.push(`${path}.${key}`)
      else diffShape(shape[key]!, object[key], `${path}.${key}`, diff)
    }
    for (const key of Object.keys(object)) if (!Object.hasOwn(shape, key)) diff.added.push(`${path}.${key}`)
  }
  return diff
}

/** Asserts that `value` has exactly the pinned shape `name`. */
function assertShape(value: unknown, shape: Shape, name: string): void {
  const diff = diffShape(shape, value)
  assert.deepStrictEqual(
    diff.removed,
    [],
    `${name}: v1 lost keys ${diff.removed.join(', ')}. v1 answers never lose or rename a key (docs/api.md §9); put them back.`,
  )
  assert.deepStrictEqual(diff.changed, [], `${name}: v1 values changed type: ${diff.changed.join('; ')}. Existing v1 responses do not change (docs/api.md §9).`)
  assert.deepStrictEqual(
    diff.added,
    [],
    `${name}: v1 gained keys ${diff.added.join(', ')}. v1 only gains keys deliberately (docs/api.md §9): if the new key is meant to be there, extend the pinned shape ${name} in test/http/v1/contract.test.ts.`,
  )
}

describe('the pinned-shape check itself', () => {
  const pin: Shape = { id: 'number', tags: arrayOf('string'), program: nullable({ name: 'string' }) }

  it('passes a value of exactly the pinned shape, with a nullable member null or filled', () => {
    assert.deepStrictEqual(diffShape(pin, { id: 1, tags: ['a'], program: null }), { removed: [], added: [], changed: [] })
    assert.deepStrictEqual(diffShape(pin, { id: 1, tags: ['a'], program: { name: 'p' } }), { removed: [], added: [], changed: [] })
  })

  it('reports a removed or renamed key at any depth', () => {
    assert.deepStrictEqual(diffShape(pin, { id: 1, tags: ['a'], program: { title: 'p' } }), {
      removed: ['$.program.name'],
      added: ['$.program.title'],
      changed: [],
    })
    assert.throws(() => assertShape({ tags: ['a'], program: null }, pin, 'PIN'), /v1 lost keys \$\.id/)
  })

  it('reports an added key with a message that says to extend the pinned shape', () => {
    assert.throws(
      () => assertShape({ id: 1, tags: ['a'], program: null, extra: true }, pin, 'PIN'),
      /gained keys \$\.extra.*extend the pinned shape PIN in test\/http\/v1\/contract\.test\.ts/,
    )
  })

  it('reports a value of another type, and an empty fixture array', () => {
    assert.deepStrictEqual(diffShape(pin, { id: '1', tags: [], program: null }).changed, [
      '$.id: pinned number, got string',
      '$.tags: pinned array is empty in the fixture, so its items go unchecked; give the fixture an item',
    ])
    assert.deepStrictEqual(diffShape(tuple('string', 'number'), ['a']).changed, ['$: pinned 2 items, got 1'])
  })
})

// ---------------------------------------------------------------------------------------------------
// Shared setup.

let api: Api

async function v1(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return api.call(method, path, body, headers)
}

async function createForm(body: Record<string, unknown>): Promise<Json> {
  const response = await v1('POST', '/v1/forms', body)
  assert.equal(response.status, 201, `POST /v1/forms answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

async function readForm(id: number): Promise<Json> {
  const response = await v1('GET', `/v1/forms/${id}`)
  assert.equal(response.status, 200, `GET /v1/forms answered ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

async function readV2(id: number): Promise<TemplateView> {
  const response = await api.call('GET', `/v2/clubs/chess/achievements/${id}`)
  assert.equal(response.status, 200)
  return response.body.data
}

const recipient = (name: string, extra: Record<string, unknown> = {}) => ({
  externalUserId: name,
  name: `Member ${name}`,
  email: `${name}@chess.example`,
  ...extra,
})

// ---------------------------------------------------------------------------------------------------

describe('every v1 response has exactly its pinned shape (docs/api.md §4.12, §9)', () => {
  let badge: number
  let certificate: number
  before(async () => {
    api = await openApi()
    badge = await createDesign(api, 'badge')
    certificate = await createDesign(api, 'certificate')
  })
  after(async () => {
    await api.close()
  })

  const fullForm = () => ({
    name: '체스 입문',
    nameEn: 'Chess basics',
    type: 'completion',
    description: '기본 규칙을 배웠습니다.',
    descriptionEn: 'Learned the rules.',
    imprintDescription: '체스 기본 규칙 이수',
    imprintDescriptionEn: 'Completed the rules of chess',
    tags: ['체스', 'opening'],
    prefix: 'CHS',
    program: { name: 'Summer camp', type: 'camp', url: 'https://chess.example/camp', isPublic: true },
    courseBeginAt: '2024-07-01T09:00:00+09:00',
    courseEndAt: '2024-07-05T18:00:00+09:00',
    achievementBadgeDesignId: badge,
    achievementCertificateDesignId: certificate,
    requirements: [
      { type: 'score', description: 'Score 80 or more', url: 'https://chess.example/exam', order: 1 },
      { type: 'course_complete', description: 'Finish the course', order: 0 },
    ],
  })

  it('POST /v1/forms answers 201 with the form and a Location that reads the same form', async () => {
    const response = await v1('POST', '/v1/forms', fullForm())
    assert.equal(response.status, 201, JSON.stringify(response.body))
    assertShape(response.body, V1_FORM, 'V1_FORM')
    assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/)
    const location = response.headers.get('location')
    assert.equal(location, `${ORIGIN}/v1/forms/${response.body.id}`)
    const read = await v1('GET', new URL(location!).pathname)
    assert.equal(read.status, 200)
    assert.deepStrictEqual(read.body, response.body, 'the created form reads back as answered')
  })

  it('GET /v1/forms/{id} answers the form with every member filled', async () => {
    const form = await readForm((await createForm(fullForm())).id)
    assertShape(form, V1_FORM, 'V1_FORM')
    assert.notEqual(form.program, null, 'the fixture fills program, so its keys are checked')
    assert.equal(form.nameEn, 'Chess basics')
    assert.equal(form.descriptionEn, 'Learned the rules.')
    assert.deepStrictEqual(
      form.requirements.map((requirement: { order: number }) => requirement.order),
      [0, 1],
    )
    assert.deepStrictEqual(form.institutions[0], { name: 'Chess Club', role: 'representative', isVerified: false })
  })

  it('GET /v1/forms/{id} answers a bare form (every nullable member null) in the same shape', async () => {
    const form = await readForm((await createForm({ name: 'Bare', description: 'Nothing else.', tags: ['t'], requirements: [{ description: 'r' }] })).id)
    assertShape(form, V1_FORM, 'V1_FORM')
    for (const key of [
      'nameEn',
      'descriptionEn',
      'imprintDescriptionEn',
      'prefix',
      'program',
      'courseBeginAt',
      'courseEndAt',
      'achievementBadgeDesignId',
      'achievementCertificateDesignId',
    ]) {
      assert.equal(form[key], null, key)
    }
  })

  it('PATCH /v1/forms/{id} answers 200 with the form as saved, which GET then reads', async () => {
    const { id } = await createForm(fullForm())
    const response = await v1('PATCH', `/v1/forms/${id}`, {
      nameEn: 'Chess for beginners',
      requirements: [{ type: 'other', description: 'Only this', order: 3 }],
    })
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assertShape(response.body, V1_FORM, 'V1_FORM')
    assert.equal(response.body.nameEn, 'Chess for beginners')
    assert.deepStrictEqual(await readForm(id), response.body)
  })

  it('POST /v1/achievements answers { issued[], failed[] }, and issued[].id reads at once on GET /v1/achievements/{id}', async () => {
    const { id: formId } = await createForm(fullForm())
    const first = await v1('POST', '/v1/achievements', { formId, recipients: [recipient('kim')] })
    assert.equal(first.status, 200, JSON.stringify(first.body))

    const response = await v1('POST', '/v1/achievements', {
      formId,
      recipients: [recipient('kim'), recipient('lee'), recipient('lee'), { name: 'No mail', email: 'not an address' }],
    })
    assert.equal(response.status, 200, JSON.stringify(response.body))
    assert.match(response.headers.get('content-type') ?? '', /^application\/json\b/)
    assertShape(response.body, V1_BULK_ISSUE, 'V1_BULK_ISSUE')
    assert.deepStrictEqual(
      response.body.issued.map((item: { ref: string }) => item.ref),
      ['lee'],
    )
    assert.deepStrictEqual(
      response.body.failed.map(({ ref, status, error }: { ref: string; status: string; error: { code: string } }) => [ref, status, error.code]),
      [
        ['kim', 'skipped', 'already-issued'],
        ['lee', 'skipped', 'duplicate-in-request'],
        ['3', 'failed', 'invalid-email'],
      ],
    )
    assert.equal(response.body.failed[0].error.resourceId, first.body.issued[0].id, 'already-issued names the issuance the recipient holds')

    const read = await v1('GET', `/v1/achievements/${response.body.issued[0].id}`)
    assert.equal(read.status, 200, 'issued[].id is readable at once')
    assert.equal(read.body.id, response.body.issued[0].id)
  })

  it('GET /v1/achievements/{id} answers credential null before signing and { id, shareUrl, verifyUrl } after', async () => {
    const form = await createForm(fullForm())
    const issued = await v1('POST', '/v1/achievements', {
      formId: form.id,
      recipients: [
        recipient('park', {
          evidences: [
            { url: 'https://chess.example/games/1', name: 'Game 1', description: 'A won game', isPublic: true },
            { url: 'https://chess.example/notes', isPublic: false },
          ],
        }),
      ],
    })
    assert.equal(issued.status, 200, JSON.stringify(issued.body))
    const id = issued.body.issued[0].id

    const pending = await v1('GET', `/v1/achievements/${id}`)
    assert.equal(pending.status, 200)
    assertShape(pending.body, V1_ISSUANCE, 'V1_ISSUANCE')
    assert.equal(pending.body.credential, null, 'no credential before the worker signed it')
    assert.equal(pending.body.id, id)
    assert.equal(pending.body.formId, form.id)
    assert.deepStrictEqual(pending.body.recipient, { externalUserId: 'park', name: 'Member park', email: 'park@chess.example' })
    assert.deepStrictEqual(
      pending.body.evidences.map((evidence: { isPublic: boolean }) => evidence.isPublic),
      [true, false],
    )
    assert.equal(pending.body.form.id, form.id)
    assert.equal(pending.body.form.nameEn, 'Chess basics')
    assert.equal(pending.body.form.descriptionEn, 'Learned the rules.')
    assert.deepStrictEqual(
      pending.body.form.requirements.map((requirement: { id: number }) => requirement.id),
      form.requirements.map((requirement: { id: number }) => requirement.id),
      'form.requirements[].id are the form’s requirement ids, in order',
    )

    await api.issuer.worker.drain()
    const signed = await v1('GET', `/v1/achievements/${id}`)
    assertShape(signed.body, V1_ISSUANCE, 'V1_ISSUANCE')
    assert.notEqual(signed.body.credential, null, 'the credential pointer exists after signing')
    const v2 = await api.call('GET', `/v2/clubs/chess/issuances/${id}`)
    assert.deepStrictEqual(signed.body.credential, {
      id: v2.body.data.credential.id,
      shareUrl: v2.body.data.credential.shareUrl,
      verifyUrl: v2.body.data.credential.verifyUrl,
    })
    assert.deepStrictEqual(
      { ...signed.body, credential: null, status: pending.body.status },
      pending.body,
      'signing changes only the credential and the status',
    )
  })
})

describe('v1 writes follow the v2 rules (docs/api.md §4.10, §7)', () => {
  let formId: number
  beforeEach(async () => {
    api = await openApi()
    formId = (await createForm({ name: 'Existing', description: 'Stays as it is.', tags: ['keep'] })).id
  })
  afterEach(async () => {
    await api.close()
  })

  /** The same invalid input on v1 and on v2, and the errors[] each answers. */
  const CASES: {
    why: string
    v1: Record<string, unknown>
    v2: Record<string, unknown>
    v1Errors: { message: string; path: string }[]
    v2Errors: { message: string; path: string }[]
  }[] = [
    {
      why: 'a tag " a , b" is tag-contains-comma',
      v1: { tags: [' a , b'] },
      v2: { tag: [' a , b'] },
      v1Errors: [{ message: 'tag-contains-comma', path: 'tags.0' }],
      v2Errors: [{ message: 'tag-contains-comma', path: 'tag.0' }],
    },
    {
      why: 'a blank tag is tag-contains-comma',
      v1: { tags: ['ok', '  '] },
      v2: { tag: ['ok', '  '] },
      v1Errors: [{ message: 'tag-contains-comma', path: 'tags.1' }],
      v2Errors: [{ message: 'tag-contains-comma', path: 'tag.1' }],
    },
    {
      why: 'Hangul in nameEn is en-text-not-latin',
      v1: { nameEn: '체스 입문' },
      v2: { nameEn: '체스 입문' },
      v1Errors: [{ message: 'en-text-not-latin', path: 'nameEn' }],
      v2Errors: [{ message: 'en-text-not-latin', path: 'nameEn' }],
    },
    {
      why: 'Hangul in descriptionEn and imprintDescriptionEn is en-text-not-latin',
      v1: { descriptionEn: 'Rules 규칙', imprintDescriptionEn: '각인' },
      v2: { descriptionEn: 'Rules 규칙', imprintDescriptionEn: '각인' },
      v1Errors: [
        { message: 'en-text-not-latin', path: 'descriptionEn' },
        { message: 'en-text-not-latin', path: 'imprintDescriptionEn' },
      ],
      v2Errors: [
        { message: 'en-text-not-latin', path: 'descriptionEn' },
        { message: 'en-text-not-latin', path: 'imprintDescriptionEn' },
      ],
    },
    {
      why: 'a requirement without description and url is requirement-empty',
      v1: { requirements: [{ type: 'score', order: 0 }] },
      v2: { criteria: { requirements: [{ type: 'score' }] } },
      v1Errors: [{ message: 'requirement-empty', path: 'requirements.0' }],
      v2Errors: [{ message: 'requirement-empty', path: 'criteria.requirements.0' }],
    },
    {
      why: 'a requirement with an empty description and url is requirement-empty',
      v1: { requirements: [{ description: '', url: '', order: 0 }] },
      v2: { criteria: { requirements: [{ description: '', url: '' }] } },
      v1Errors: [{ message: 'requirement-empty', path: 'requirements.0' }],
      v2Errors: [{ message: 'requirement-empty', path: 'criteria.requirements.0' }],
    },
    {
      why: 'an unknown requirement type is refused',
      v1: { requirements: [{ type: 'juggling', description: 'Juggle', order: 0 }] },
      v2: { criteria: { requirements: [{ type: 'juggling', description: 'Juggle' }] } },
      v1Errors: [{ message: 'unknown-requirement-type', path: 'requirements.0.type' }],
      v2Errors: [{ message: 'unknown-requirement-type', path: 'criteria.requirements.0.type' }],
    },
    {
      why: 'an emptied description is required',
      v1: { description: '' },
      v2: { description: '' },
      v1Errors: [{ message: 'required', path: 'description' }],
      v2Errors: [{ message: 'required', path: 'description' }],
    },
  ]

  for (const c of CASES) {
    it(`POST and PATCH /v1/forms answer 422 like v2 when ${c.why}, and change nothing`, async () => {
      const before = await templateIds(api)
      const existing = await readForm(formId)

      assertValidation(await v1('POST', '/v1/forms', { name: 'New', description: 'New form.', ...c.v1 }), c.v1Errors)
      assertValidation(await v1('PATCH', `/v1/forms/${formId}`, c.v1), c.v1Errors)
      assertValidation(await api.call('POST', '/v2/clubs/chess/achievements', { name: 'New', description: 'New form.', ...c.v2 }), c.v2Errors)
      assertValidation(await api.call('PATCH', `/v2/clubs/chess/achievements/${formId}`, c.v2), c.v2Errors)

      assert.deepStrictEqual(await templateIds(api), before, 'nothing was created')
      assert.deepStrictEqual(await readForm(formId), existing, 'nothing was changed')
    })
  }

  it('accepts each of the 16 requirement type codes, on create and on patch', async () => {
    assert.equal(new Set(REQUIREMENT_TYPES).size, 16)
    for (const code of ['course_complete', 'presentation_publication', 'score']) assert.ok((REQUIREMENT_TYPES as readonly string[]).includes(code), code)
    const requirements = REQUIREMENT_TYPES.map((type, order) => ({ type, description: `Requirement ${type}`, order }))
    const created = await createForm({ name: 'Every type', description: 'All 16 codes.', requirements })
    assert.deepStrictEqual(
      created.requirements.map((requirement: { type: string }) => requirement.type),
      [...REQUIREMENT_TYPES],
    )
    const patched = await v1('PATCH', `/v1/forms/${formId}`, {
      requirements: [...requirements].reverse().map((requirement, order) => ({ ...requirement, order })),
    })
    assert.equal(patched.status, 200, JSON.stringify(patched.body))
    assert.deepStrictEqual(
      patched.body.requirements.map((requirement: { type: string }) => requirement.type),
      [...REQUIREMENT_TYPES].reverse(),
    )
  })

  it('refuses a requirement order below 0 or not an integer (docs/api.md §8)', async () => {
    assertValidation(
      await v1('POST', '/v1/forms', {
        name: 'New',
        description: 'x',
        requirements: [
          { description: 'a', order: -1 },
          { description: 'b', order: 1.5 },
        ],
      }),
      [
        { message: 'order-negative', path: 'requirements.0.order' },
        { message: 'must-be-integer', path: 'requirements.1.order' },
      ],
    )
  })

  it('POST /v1/achievements refuses a body that is not a JSON object with 422 must-be-object, as v2 and POST /v1/forms do', async () => {
    for (const body of ['[]', 'null', '"kim"', '7']) {
      assertValidation(await v1('POST', '/v1/achievements', body), [{ message: 'must-be-object', path: '' }])
      assertValidation(await api.call('POST', '/v2/clubs/chess/issuances', body), [{ message: 'must-be-object', path: '' }])
      assertValidation(await v1('POST', '/v1/forms', body), [{ message: 'must-be-object', path: '' }])
    }
  })

  it('POST /v1/achievements names its own member formId in errors[]', async () => {
    assertValidation(await v1('POST', '/v1/achievements', { recipients: [recipient('kim')] }), [{ message: 'required', path: 'formId' }])
    assertProblem(await v1('POST', '/v1/achievements', { formId: 999_999, recipients: [recipient('kim')] }), 404, 'achievement-not-found')
    assert.deepStrictEqual((await api.issuer.issuances.list('chess')).data, [], 'nothing was issued')
  })

  it('stores tags trimmed and de-duplicated, as v2 does', async () => {
    const form = await createForm({ name: 'Tags', description: 'x', tags: [' chess ', 'chess', 'go'] })
    assert.deepStrictEqual(form.tags, ['chess', 'go'])
    assert.deepStrictEqual((await readV2(form.id)).tag, ['chess', 'go'])
  })
})

describe('on v1 `order` drives requirement order: order ascending, then id (docs/api.md §4.10 rule 8, §9)', () => {
  beforeEach(async () => {
    api = await openApi()
  })
  afterEach(async () => {
    await api.close()
  })

  it('reads requirements by order, ties by id, on the v1 form, the v2 detail and narrative, and the issuance form of both surfaces', async () => {
    const form = await createForm({
      name: 'Ordered',
      description: 'Requirements sent out of order.',
      requirements: [
        { description: 'd', order: 9 },
        { description: 'a', order: 0 },
        { description: 'b1', order: 4 },
        { description: 'b2', order: 4 },
        { description: 'c', order: 5 },
      ],
    })
    const expected = ['a', 'b1', 'b2', 'c', 'd']
    const descriptions = (requirements: { description: string | null }[]) => requirements.map((requirement) => requirement.description)
    assert.deepStrictEqual(descriptions(form.requirements), expected, 'the create answer')
    assert.deepStrictEqual(descriptions((await readForm(form.id)).requirements), expected, 'GET /v1/forms')
    const [, , b1, b2] = form.requirements
    assert.ok(b1.id < b2.id, 'a tie is ordered by id')

    const v2 = await readV2(form.id)
    assert.deepStrictEqual(descriptions(v2.criteria.requirements), expected, 'the v2 detail')
    assert.equal(v2.criteria.narrative, '1. a\n2. b1\n3. b2\n4. c\n5. d')

    const issued = await v1('POST', '/v1/achievements', { formId: form.id, recipients: [recipient('kim')] })
    const id = issued.body.issued[0].id
    assert.deepStrictEqual(descriptions((await v1('GET', `/v1/achievements/${id}`)).body.form.requirements), expected, 'the v1 issuance form')
    assert.deepStrictEqual(
      descriptions((await api.call('GET', `/v2/clubs/chess/issuances/${id}`)).body.data.form.requirements),
      expected,
      'the v2 issuance form',
    )
  })

  it('reorders by the orders a patch sends, with new requirement ids', async () => {
    const form = await createForm({
      name: 'Reordered',
      description: 'x',
      requirements: [
        { description: 'first', order: 0 },
        { description: 'second', order: 1 },
      ],
    })
    const response = await v1('PATCH', `/v1/forms/${form.id}`, {
      requirements: [
        { description: 'first', order: 1 },
        { description: 'second', order: 0 },
      ],
    })
    assert.equal(response.status, 200)
    assert.deepStrictEqual(
      response.body.requirements.map(({ description, order }: { description: string; order: number }) => [description, order]),
      [
        ['second', 0],
        ['first', 1],
      ],
    )
    const oldIds = new Set(form.requirements.map((requirement: { id: number }) => requirement.id))
    for (const requirement of response.body.requirements) assert.ok(!oldIds.has(requirement.id), 'a replaced list has new ids (docs/api.md §4.10 rule 5)')
    assert.equal((await readV2(form.id)).criteria.narrative, '1. second\n2. first')
  })
})

describe('v1 needs the scope of each operation (docs/decisions/0003-scopes-per-operation.md)', () => {
  let formId: number
  let issuanceId: number
  before(async () => {
    api = await openApi()
    formId = (await createForm({ name: 'Scoped', description: 'x' })).id
    issuanceId = (await v1('POST', '/v1/achievements', { formId, recipients: [recipient('kim')] })).body.issued[0].id
  })
  after(async () => {
    await api.close()
  })

  let fresh = 0
  const OPERATIONS: { name: string; method: string; path: () => string; body?: () => unknown; scope: ScopeName; ok: number }[] = [
    { name: 'GET /v1/forms/{id}', method: 'GET', path: () => `/v1/forms/${formId}`, scope: 'achievements:read', ok: 200 },
    {
      name: 'POST /v1/forms',
      method: 'POST',
      path: () => '/v1/forms',
      body: () => ({ name: 'By scope', description: 'x' }),
      scope: 'achievements:manage',
      ok: 201,
    },
    {
      name: 'PATCH /v1/forms/{id}',
      method: 'PATCH',
      path: () => `/v1/forms/${formId}`,
      body: () => ({ nameEn: 'Scoped' }),
      scope: 'achievements:manage',
      ok: 200,
    },
    {
      name: 'POST /v1/achievements',
      method: 'POST',
      path: () => '/v1/achievements',
      body: () => ({ formId, recipients: [recipient(`fresh-${++fresh}`)] }),
      scope: 'issuance:write',
      ok: 200,
    },
    { name: 'GET /v1/achievements/{id}', method: 'GET', path: () => `/v1/achievements/${issuanceId}`, scope: 'issuance:read', ok: 200 },
  ]

  for (const operation of OPERATIONS) {
    it(`${operation.name} answers 403 insufficient-scope without ${operation.scope}, and changes nothing`, async () => {
      const without = await api.tokenWith(SCOPE_NAMES.filter((scope) => scope !== operation.scope))
      const formsBefore = await templateIds(api)
      const formBefore = await readForm(formId)
      const issuancesBefore = (await api.call('GET', '/v2/clubs/chess/issuances?limit=100')).body.data
      const refused = await v1(operation.method, operation.path(), operation.body?.(), { authorization: `Bearer ${without}` })
      assertProblem(refused, 403, 'insufficient-scope')
      assert.match(refused.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/)
      assert.deepStrictEqual(await templateIds(api), formsBefore)
      assert.deepStrictEqual(await readForm(formId), formBefore)
      assert.deepStrictEqual((await api.call('GET', '/v2/clubs/chess/issuances?limit=100')).body.data, issuancesBefore)

      const only = await api.tokenWith([operation.scope])
      const allowed = await v1(operation.method, operation.path(), operation.body?.(), { authorization: `Bearer ${only}` })
      assert.equal(allowed.status, operation.ok, `with only ${operation.scope}: ${JSON.stringify(allowed.body)}`)
    })
  }
})

describe('v1 reaches the forms and issuances of the token’s club only (docs/api.md §5 item 5)', () => {
  let chessForm: number
  let chessIssuance: number
  let goToken: string
  beforeEach(async () => {
    api = await openApi()
    chessForm = (await createForm({ name: 'Chess form', description: 'x' })).id
    chessIssuance = (await v1('POST', '/v1/achievements', { formId: chessForm, recipients: [recipient('kim')] })).body.issued[0].id
    await api.issuer.clubs.create({ domain: 'go', name: 'Go Club' })
    const client = await api.issuer.clients.create({ club: 'go' })
    const token = await api.issuer.fetch(new Request(`${ORIGIN}/oauth/token`, clientCredentialsGrant(client)))
    assert.equal(token.status, 200)
    goToken = ((await token.json()) as { access_token: string }).access_token
  })
  afterEach(async () => {
    await api.close()
  })

  const asGo = () => ({ authorization: `Bearer ${goToken}` })

  it('GET /v1/forms/{id} of another club’s form answers 404 achievement-not-found', async () => {
    assertProblem(await v1('GET', `/v1/forms/${chessForm}`, undefined, asGo()), 404, 'achievement-not-found')
  })

  it('PATCH /v1/forms/{id} of another club’s form answers 404 achievement-not-found and changes nothing', async () => {
    const before = await readForm(chessForm)
    assertProblem(await v1('PATCH', `/v1/forms/${chessForm}`, { name: 'Taken over' }, asGo()), 404, 'achievement-not-found')
    assert.deepStrictEqual(await readForm(chessForm), before)
  })

  it('POST /v1/achievements with another club’s form answers 404 achievement-not-found and issues nothing', async () => {
    const before = (await api.call('GET', '/v2/clubs/chess/issuances?limit=100')).body.data
    assertProblem(await v1('POST', '/v1/achievements', { formId: chessForm, recipients: [recipient('lee')] }, asGo()), 404, 'achievement-not-found')
    assert.deepStrictEqual((await api.call('GET', '/v2/clubs/chess/issuances?limit=100')).body.data, before)
    assert.deepStrictEqual((await api.issuer.issuances.list('go')).data, [])
  })

  it('GET /v1/achievements/{id} of another club’s issuance answers 404 issuance-not-found', async () => {
    assertProblem(await v1('GET', `/v1/achievements/${chessIssuance}`, undefined, asGo()), 404, 'issuance-not-found')
  })

  it('POST /v1/forms creates in the token’s club', async () => {
    const response = await v1('POST', '/v1/forms', { name: 'Go form', description: 'x' }, asGo())
    assert.equal(response.status, 201)
    assert.equal((await api.issuer.achievements.read('go', response.body.id)).name, 'Go form')
    assertProblem(await v1('GET', `/v1/forms/${response.body.id}`), 404, 'achievement-not-found')
    assert.equal((await v1('GET', `/v1/forms/${response.body.id}`, undefined, asGo())).status, 200)
  })
})

import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { REQUIREMENT_TYPES } from '../../../core/achievements/template.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ACHIEVEMENTS, aTemplate, assertUnchanged, assertValidation, create, listAll, patch, read, templatePath } from '../../support/achievement-api.ts'

/** The write rules of docs/api.md §4.10 and docs/decisions/0011-templates.md, through POST and PATCH. */

let api: Api
beforeEach(async () => {
  api = await openApi()
})
afterEach(async () => {
  await api.close()
})

/** POSTs a body that must be refused with exactly `errors`, and proves the list did not change. */
async function assertCreateRefused(body: unknown, errors: { message: string; path: string }[]): Promise<void> {
  const before = await listAll(api)
  assertValidation(await api.call('POST', ACHIEVEMENTS, body), errors)
  assert.deepEqual(await listAll(api), before)
}

/** PATCHes a body that must be refused with exactly `errors`, and proves the template did not change. */
async function assertPatchRefused(id: number, body: unknown, errors: { message: string; path: string }[]): Promise<void> {
  const before = await read(api, id)
  assertValidation(await api.call('PATCH', templatePath(id), body), errors)
  await assertUnchanged(api, id, before)
}

const range = (count: number) => Array.from({ length: count }, (_, i) => i)

describe('template tags (docs/api.md §4.10 rule 2)', () => {
  it('31 tags that de-duplicate to 30 are accepted and stored as the 30 trimmed, unique tags', async () => {
    const tags = [...range(30).map((i) => `  skill ${i}\t`), 'skill 0']
    const saved = await create(api, aTemplate({ tag: tags }))
    const expected = range(30).map((i) => `skill ${i}`)
    assert.deepEqual(saved.tag, expected)
    assert.deepEqual((await read(api, saved.id)).tag, expected)
  })

  it('tags that differ only by surrounding white space are one tag, kept at its first position', async () => {
    const saved = await create(api, aTemplate({ tag: ['b', ' a', 'b ', 'a', '  c  '] }))
    assert.deepEqual(saved.tag, ['b', 'a', 'c'])
  })

  it('31 distinct tags are refused with too-many-tags and nothing is created', async () => {
    await assertCreateRefused(aTemplate({ tag: range(31).map((i) => `skill ${i}`) }), [{ message: 'too-many-tags', path: 'tag' }])
  })

  it('a patch with 31 distinct tags is refused and leaves the tags as they were', async () => {
    const saved = await create(api, aTemplate({ tag: ['endgame'] }))
    await assertPatchRefused(saved.id, { tag: range(31).map((i) => `t${i}`) }, [{ message: 'too-many-tags', path: 'tag' }])
  })

  it('a 51-character tag is refused with tag-too-long at its index', async () => {
    await assertCreateRefused(aTemplate({ tag: ['fine', 'x'.repeat(51)] }), [{ message: 'tag-too-long', path: 'tag.1' }])
  })

  it('a 50-character tag is accepted, also when white space around it makes it longer', async () => {
    const tag = 'x'.repeat(50)
    const saved = await create(api, aTemplate({ tag: [`   ${tag}   `] }))
    assert.deepEqual(saved.tag, [tag])
  })

  it('a 50-character Hangul tag is accepted, since length counts characters, not bytes', async () => {
    const tag = '체'.repeat(50)
    assert.equal(new TextEncoder().encode(tag).length, 150)
    const saved = await create(api, aTemplate({ tag: [tag] }))
    assert.deepEqual(saved.tag, [tag])
  })

  it('a 50-character tag outside the BMP is accepted, since length counts characters, not UTF-16 units', async () => {
    const tag = '𝄞'.repeat(50)
    assert.equal(tag.length, 100)
    const saved = await create(api, aTemplate({ tag: [tag] }))
    assert.deepEqual(saved.tag, [tag])
  })

  it('a 51-character Hangul tag is refused with tag-too-long', async () => {
    await assertCreateRefused(aTemplate({ tag: ['체'.repeat(51)] }), [{ message: 'tag-too-long', path: 'tag.0' }])
  })

  it('a tag holding a comma is refused with tag-contains-comma', async () => {
    await assertCreateRefused(aTemplate({ tag: [' a , b'] }), [{ message: 'tag-contains-comma', path: 'tag.0' }])
  })

  it('an empty tag and a white-space-only tag are refused with tag-contains-comma, not silently dropped', async () => {
    await assertCreateRefused(aTemplate({ tag: ['chess', '', '   '] }), [
      { message: 'tag-contains-comma', path: 'tag.1' },
      { message: 'tag-contains-comma', path: 'tag.2' },
    ])
  })

  it('a patch with an empty tag is refused and leaves the tags as they were', async () => {
    const saved = await create(api, aTemplate({ tag: ['endgame', 'tactics'] }))
    await assertPatchRefused(saved.id, { tag: ['endgame', ''] }, [{ message: 'tag-contains-comma', path: 'tag.1' }])
    await assertPatchRefused(saved.id, { tag: ['a,b'] }, [{ message: 'tag-contains-comma', path: 'tag.0' }])
  })

  it('a patch of tags replaces the stored set, and [] empties it', async () => {
    const saved = await create(api, aTemplate({ tag: ['endgame', 'tactics'] }))
    assert.deepEqual((await patch(api, saved.id, { tag: [' openings ', 'endgame'] })).tag, ['openings', 'endgame'])
    assert.deepEqual((await patch(api, saved.id, { tag: [] })).tag, [])
    assert.deepEqual((await read(api, saved.id)).tag, [])
  })
})

describe('English text slots (docs/api.md §4.10 rule 3)', () => {
  const SLOTS = ['nameEn', 'descriptionEn', 'imprintDescriptionEn'] as const

  for (const slot of SLOTS) {
    it(`Hangul in ${slot} is refused with en-text-not-latin and nothing is created`, async () => {
      await assertCreateRefused(aTemplate({ [slot]: 'Hello 세계' }), [{ message: 'en-text-not-latin', path: slot }])
    })

    it(`a patch with Hangul in ${slot} is refused and leaves the template as it was`, async () => {
      const saved = await create(api, aTemplate({ [slot]: 'Hello world' }))
      await assertPatchRefused(saved.id, { [slot]: 'Hello 세계' }, [{ message: 'en-text-not-latin', path: slot }])
    })

    it(`Cyrillic and CJK in ${slot} are refused with en-text-not-latin`, async () => {
      for (const text of ['Привет мир', 'Hello 世界', 'こんにちは', 'Ελληνικά']) {
        await assertCreateRefused(aTemplate({ [slot]: text }), [{ message: 'en-text-not-latin', path: slot }])
      }
    })

    it(`accented Latin with digits and punctuation in ${slot} is accepted and stored verbatim`, async () => {
      const text = 'Café Müller, niño — 2024! Øresund Łódź «quoted»'
      const saved = await create(api, aTemplate({ [slot]: text }))
      assert.equal(saved[slot], text)
      assert.equal((await read(api, saved.id))[slot], text)
    })

    it(`an empty-string ${slot} is stored as null, on create and on patch`, async () => {
      const saved = await create(api, aTemplate({ [slot]: '' }))
      assert.equal(saved[slot], null)
      await patch(api, saved.id, { [slot]: 'Chess' })
      assert.equal((await read(api, saved.id))[slot], 'Chess')
      assert.equal((await patch(api, saved.id, { [slot]: '' }))[slot], null)
      assert.equal((await read(api, saved.id))[slot], null)
    })
  }
})

describe('description (docs/api.md §4.10 rule 1)', () => {
  it('a create without description is refused with required and nothing is created', async () => {
    await assertCreateRefused({ name: 'No description' }, [{ message: 'required', path: 'description' }])
  })

  it('a create with an empty or blank description is refused with required', async () => {
    await assertCreateRefused({ name: 'x', description: '' }, [{ message: 'required', path: 'description' }])
    await assertCreateRefused({ name: 'x', description: '  \n ' }, [{ message: 'required', path: 'description' }])
  })

  it('a patch that empties description with "", blank or null is refused and the description is unchanged', async () => {
    const saved = await create(api, aTemplate({ description: 'Keep me' }))
    for (const description of ['', '   ', null]) {
      await assertPatchRefused(saved.id, { description }, [{ message: 'required', path: 'description' }])
    }
    assert.equal((await read(api, saved.id)).description, 'Keep me')
  })

  it('a patch that empties name with "", blank or null is refused with required and the name is unchanged', async () => {
    const saved = await create(api, aTemplate({ name: 'Keep me' }))
    for (const name of ['', '   ', null]) {
      await assertPatchRefused(saved.id, { name }, [{ message: 'required', path: 'name' }])
    }
  })

  it('a create without name is refused with required', async () => {
    await assertCreateRefused({ description: 'No name' }, [{ message: 'required', path: 'name' }])
  })

  it('a patch without description keeps it', async () => {
    const saved = await create(api, aTemplate({ description: 'Keep me' }))
    assert.equal((await patch(api, saved.id, { name: 'Renamed' })).description, 'Keep me')
  })
})

describe('requirements (docs/api.md §2.4, §4.10 rules 4 and 5)', () => {
  it('a requirement with neither description nor url is refused with requirement-empty at its index', async () => {
    const requirements = [{ description: 'Fine' }, { type: 'score' }]
    await assertCreateRefused(aTemplate({ criteria: { requirements } }), [{ message: 'requirement-empty', path: 'criteria.requirements.1' }])
  })

  it('a requirement whose description and url are empty strings or null is refused with requirement-empty', async () => {
    for (const requirement of [{}, { description: '', url: '' }, { description: null, url: null }, { description: '  ' }]) {
      await assertCreateRefused(aTemplate({ criteria: { requirements: [requirement] } }), [{ message: 'requirement-empty', path: 'criteria.requirements.0' }])
    }
  })

  it('a patch with an empty requirement is refused and keeps the requirements and their ids', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'Play 10 games' }] } }))
    await assertPatchRefused(saved.id, { criteria: { requirements: [{ description: 'New' }, {}] } }, [
      { message: 'requirement-empty', path: 'criteria.requirements.1' },
    ])
  })

  it('a requirement with only a url or only a description is accepted', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ url: 'https://chess.example/rules' }, { description: 'Win once' }] } }))
    assert.deepEqual(
      saved.criteria.requirements.map(({ description, url }) => ({ description, url })),
      [
        { description: null, url: 'https://chess.example/rules' },
        { description: 'Win once', url: null },
      ],
    )
  })

  it('an unknown requirement type is refused with unknown-requirement-type', async () => {
    await assertCreateRefused(aTemplate({ criteria: { requirements: [{ type: 'bribe_referee', description: 'x' }] } }), [
      { message: 'unknown-requirement-type', path: 'criteria.requirements.0.type' },
    ])
  })

  it('there are 16 requirement type codes, course_complete, presentation_publication and score among them', () => {
    assert.equal(REQUIREMENT_TYPES.length, 16)
    assert.equal(new Set(REQUIREMENT_TYPES).size, 16)
    for (const code of ['course_complete', 'presentation_publication', 'score']) assert.ok(REQUIREMENT_TYPES.includes(code as never), code)
  })

  it('each of the 16 requirement type codes is accepted and read back', async () => {
    const requirements = REQUIREMENT_TYPES.map((type) => ({ type, description: `Requirement ${type}` }))
    const saved = await create(api, aTemplate({ criteria: { requirements } }))
    assert.deepEqual(
      saved.criteria.requirements.map(({ type }) => type),
      [...REQUIREMENT_TYPES],
    )
    assert.deepEqual((await read(api, saved.id)).criteria, saved.criteria)
  })

  it('a requirement without type is stored with type null', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'Untyped' }] } }))
    assert.equal(saved.criteria.requirements[0]!.type, null)
  })

  it('a requirement sent with order is refused with unknown-field, since on v2 the position is the order', async () => {
    await assertCreateRefused(aTemplate({ criteria: { requirements: [{ description: 'x', order: 3 }] } }), [
      { message: 'unknown-field', path: 'criteria.requirements.0.order' },
    ])
  })
})

describe('template type (docs/decisions/0011-templates.md)', () => {
  it('type defaults to completion', async () => {
    const saved = await create(api)
    assert.equal(saved.type, 'completion')
    assert.equal(saved.achievementType, 'CertificateOfCompletion')
  })

  it('an unknown type is refused with unknown-type', async () => {
    await assertCreateRefused(aTemplate({ type: 'trophy' }), [{ message: 'unknown-type', path: 'type' }])
  })
})

describe('lengths and links (docs/decisions/0011-templates.md)', () => {
  it('a name over 200 characters is refused with too-long, 200 Hangul characters are accepted', async () => {
    await assertCreateRefused(aTemplate({ name: 'x'.repeat(201) }), [{ message: 'too-long', path: 'name' }])
    assert.equal((await create(api, aTemplate({ name: '체'.repeat(200) }))).name, '체'.repeat(200))
  })

  it('a requirement or program url that is not http(s) is refused with invalid-url', async () => {
    const saved = await create(api)
    for (const url of ['javascript:alert(1)', 'ftp://chess.example/file', 'not a url', 'https://chess.example/a\nb', 'https://chess.example/\tx']) {
      await assertPatchRefused(saved.id, { criteria: { requirements: [{ url }] } }, [{ message: 'invalid-url', path: 'criteria.requirements.0.url' }])
      await assertPatchRefused(saved.id, { program: { url } }, [{ message: 'invalid-url', path: 'program.url' }])
    }
  })
})

describe('members of the wrong type', () => {
  it('criteria, program or a requirement that is no object, an array included, is refused with must-be-object at its path', async () => {
    const saved = await create(api)
    await assertPatchRefused(saved.id, { criteria: null }, [{ message: 'must-be-object', path: 'criteria' }])
    await assertPatchRefused(saved.id, { criteria: [] }, [{ message: 'must-be-object', path: 'criteria' }])
    await assertPatchRefused(saved.id, { program: 'Spring league' }, [{ message: 'must-be-object', path: 'program' }])
    await assertPatchRefused(saved.id, { program: [] }, [{ message: 'must-be-object', path: 'program' }])
    await assertPatchRefused(saved.id, { criteria: { requirements: [[]] } }, [{ message: 'must-be-object', path: 'criteria.requirements.0' }])
    await assertPatchRefused(saved.id, { criteria: { requirements: ['Win a game'] } }, [{ message: 'must-be-object', path: 'criteria.requirements.0' }])
  })

  it('tag or requirements that are no array are refused with must-be-array', async () => {
    const saved = await create(api)
    await assertPatchRefused(saved.id, { tag: 'a,b' }, [{ message: 'must-be-array', path: 'tag' }])
    await assertPatchRefused(saved.id, { tag: null }, [{ message: 'must-be-array', path: 'tag' }])
    await assertPatchRefused(saved.id, { criteria: { requirements: null } }, [{ message: 'must-be-array', path: 'criteria.requirements' }])
  })

  it('a text member that is no string is refused with must-be-string', async () => {
    await assertCreateRefused(aTemplate({ nameEn: 5 }), [{ message: 'must-be-string', path: 'nameEn' }])
    await assertCreateRefused(aTemplate({ description: 42 }), [{ message: 'must-be-string', path: 'description' }])
    await assertCreateRefused(aTemplate({ tag: ['chess', 5] }), [{ message: 'must-be-string', path: 'tag.1' }])
  })

  it('program.isPublic that is no boolean is refused with must-be-boolean', async () => {
    await assertCreateRefused(aTemplate({ program: { isPublic: 'yes' } }), [{ message: 'must-be-boolean', path: 'program.isPublic' }])
  })
})

describe('unknown members', () => {
  it('an unknown top-level member is refused with unknown-field at its name', async () => {
    await assertCreateRefused(aTemplate({ descripton: 'typo' }), [{ message: 'unknown-field', path: 'descripton' }])
  })

  it('an unknown member in program or criteria is refused with unknown-field', async () => {
    const saved = await create(api)
    await assertPatchRefused(saved.id, { program: { name: 'P', visibility: 'public' } }, [{ message: 'unknown-field', path: 'program.visibility' }])
    await assertPatchRefused(saved.id, { criteria: { requirement: [] } }, [{ message: 'unknown-field', path: 'criteria.requirement' }])
  })
})

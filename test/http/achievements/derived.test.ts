import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { openApi, type Api } from '../../support/api-harness.ts'
import { ORIGIN } from '../../support/origin.ts'
import { aTemplate, create, patch, read } from '../../support/achievement-api.ts'
import type { TemplateView } from '../../../core/achievements/present.ts'

/**
 * What the template read derives and what a patch keeps (docs/api.md §2.3 to §2.5, §4.10 rules 5
 * to 8), through HTTP.
 */

let api: Api
beforeEach(async () => {
  api = await openApi()
})
afterEach(async () => {
  await api.close()
})

const idsOf = (template: TemplateView): number[] => template.criteria.requirements.map((requirement) => requirement.id)

describe('program (docs/api.md §2.5, §4.10 rule 6)', () => {
  it('a patch of only program.url changes the url and keeps name and isPublic', async () => {
    const saved = await create(api, aTemplate({ program: { name: 'Spring league', url: 'https://chess.example/a', isPublic: true } }))
    assert.deepEqual(saved.program, { name: 'Spring league', url: 'https://chess.example/a', isPublic: true })
    const patched = await patch(api, saved.id, { program: { url: 'https://chess.example/b' } })
    const expected = { name: 'Spring league', url: 'https://chess.example/b', isPublic: true }
    assert.deepEqual(patched.program, expected)
    assert.deepEqual((await read(api, saved.id)).program, expected)
  })

  it('a patch of only program.name keeps the url', async () => {
    const saved = await create(api, aTemplate({ program: { name: 'Spring league', url: 'https://chess.example/a', isPublic: true } }))
    assert.deepEqual((await patch(api, saved.id, { program: { name: 'Autumn league' } })).program, {
      name: 'Autumn league',
      url: 'https://chess.example/a',
      isPublic: true,
    })
  })

  it('program is returned only while isPublic is true, and a hidden program keeps its values', async () => {
    const saved = await create(api, aTemplate({ program: { name: 'Club ladder', url: 'https://chess.example/ladder', isPublic: false } }))
    assert.equal('program' in saved, false)
    assert.equal('program' in (await read(api, saved.id)), false)

    const shown = await patch(api, saved.id, { program: { isPublic: true } })
    assert.deepEqual(shown.program, { name: 'Club ladder', url: 'https://chess.example/ladder', isPublic: true })

    const hidden = await patch(api, saved.id, { program: { isPublic: false } })
    assert.equal('program' in hidden, false)
    assert.equal('program' in (await read(api, saved.id)), false)
  })

  it('a program sent without isPublic is not public', async () => {
    const saved = await create(api, aTemplate({ program: { name: 'Club ladder' } }))
    assert.equal('program' in saved, false)
  })

  it('a patch without program keeps it', async () => {
    const saved = await create(api, aTemplate({ program: { name: 'Club ladder', isPublic: true } }))
    assert.deepEqual((await patch(api, saved.id, { name: 'Renamed' })).program, { name: 'Club ladder', url: null, isPublic: true })
  })
})

describe('engraved description (docs/api.md §4.10 rule 7)', () => {
  it('an engraved description not written separately mirrors the description and follows its patch', async () => {
    const saved = await create(api, aTemplate({ description: 'Old text' }))
    assert.equal(saved.imprintDescription, 'Old text')
    const patched = await patch(api, saved.id, { description: 'New text' })
    assert.equal(patched.description, 'New text')
    assert.equal(patched.imprintDescription, 'New text')
    assert.equal((await read(api, saved.id)).imprintDescription, 'New text')
  })

  it('a separately written engraved description stays when the description is patched', async () => {
    const saved = await create(api, aTemplate({ description: 'Old text', imprintDescription: 'Engraved text' }))
    const patched = await patch(api, saved.id, { description: 'New text' })
    assert.equal(patched.description, 'New text')
    assert.equal(patched.imprintDescription, 'Engraved text')
    assert.equal((await read(api, saved.id)).imprintDescription, 'Engraved text')
  })

  it('a patch that sends imprintDescription as "" or null makes it a mirror again, which then follows the description', async () => {
    for (const imprintDescription of ['', null]) {
      const saved = await create(api, aTemplate({ description: 'Old text', imprintDescription: 'Engraved text' }))
      assert.equal((await patch(api, saved.id, { imprintDescription })).imprintDescription, 'Old text')
      assert.equal((await patch(api, saved.id, { description: 'New text' })).imprintDescription, 'New text')
    }
  })

  it('a patch of both description and imprintDescription sets each', async () => {
    const saved = await create(api, aTemplate({ description: 'Old text' }))
    const patched = await patch(api, saved.id, { description: 'New text', imprintDescription: 'Engraved text' })
    assert.equal(patched.description, 'New text')
    assert.equal(patched.imprintDescription, 'Engraved text')
  })
})

describe('requirement ids and order (docs/api.md §2.4, §4.10 rules 5 and 8)', () => {
  it('replacing the requirements gives every requirement a new id, higher than any before', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'A' }, { description: 'B' }] } }))
    const before = idsOf(saved)
    const patched = await patch(api, saved.id, { criteria: { requirements: [{ description: 'A' }, { description: 'B' }, { description: 'C' }] } })
    const after = idsOf(patched)
    assert.equal(after.length, 3)
    assert.equal(new Set(after).size, 3)
    for (const id of after) assert.ok(id > Math.max(...before), `new id ${id} is higher than every old id ${before}`)
    assert.deepEqual(idsOf(await read(api, saved.id)), after)
  })

  it('requirement ids sent back in a patch are ignored: the replacement still gets new ids', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'A' }] } }))
    const patched = await patch(api, saved.id, { criteria: { requirements: saved.criteria.requirements } })
    assert.equal(patched.criteria.requirements[0]!.description, 'A')
    assert.ok(patched.criteria.requirements[0]!.id > saved.criteria.requirements[0]!.id)
  })

  it('an empty requirements array deletes all requirements and the narrative becomes empty', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'A' }, { url: 'https://chess.example' }] } }))
    const patched = await patch(api, saved.id, { criteria: { requirements: [] } })
    assert.deepEqual(patched.criteria, { narrative: '', requirements: [] })
    assert.deepEqual((await read(api, saved.id)).criteria, { narrative: '', requirements: [] })
  })

  it('a patch without criteria.requirements keeps the requirement ids', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'A' }, { description: 'B' }] } }))
    for (const body of [{ name: 'Renamed' }, { criteria: {} }, { criteria: { narrative: 'ignored' } }, { tag: ['x'] }]) {
      const patched = await patch(api, saved.id, body)
      assert.deepEqual(patched.criteria, saved.criteria, JSON.stringify(body))
    }
    assert.deepEqual((await read(api, saved.id)).criteria, saved.criteria)
  })

  it('requirements keep the order of the array and the narrative numbers them "n. description (url)" in that order', async () => {
    const requirements = [
      { type: 'score', description: 'Reach 1500 Elo', url: 'https://chess.example/elo' },
      { description: 'Attend a simul' },
      { url: 'https://chess.example/puzzles' },
      { type: 'course_complete', description: 'Annotate a game', url: 'https://chess.example/annotate' },
    ]
    const saved = await create(api, aTemplate({ criteria: { requirements } }))
    assert.deepEqual(
      saved.criteria.requirements.map(({ type, description, url }) => ({ type, description, url })),
      requirements.map((requirement) => ({ type: null, description: null, url: null, ...requirement })),
    )
    const ids = idsOf(saved)
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    )
    assert.equal(
      saved.criteria.narrative,
      [
        '1. Reach 1500 Elo (https://chess.example/elo)',
        '2. Attend a simul',
        '3. (https://chess.example/puzzles)',
        '4. Annotate a game (https://chess.example/annotate)',
      ].join('\n'),
    )
    assert.deepEqual((await read(api, saved.id)).criteria, saved.criteria)
  })

  it('line breaks inside a requirement do not add narrative lines: each requirement is one numbered line', async () => {
    const saved = await create(
      api,
      aTemplate({
        criteria: {
          requirements: [
            { description: 'Win a game\n2. Forged line', url: 'https://chess.example/win' },
            { description: '  Padded\n\n  text\u2028end  ' }, // CR is refused (docs/decisions/0031-input-robustness.md)
            { url: 'https://chess.example/ab' },
          ],
        },
      }),
    )
    const lines = saved.criteria.narrative.split('\n')
    assert.deepEqual(
      lines.map((line: string) => line.slice(0, 3)),
      ['1. ', '2. ', '3. '],
    )
    assert.equal(lines[0], '1. Win a game 2. Forged line (https://chess.example/win)')
    assert.equal(lines[1], '2. Padded text end')
    // The stored description keeps what the client sent; only the narrative line is joined.
    assert.equal(saved.criteria.requirements[0]!.description, 'Win a game\n2. Forged line')
  })

  it('a replacement in another order renumbers the narrative in the new order', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'First' }, { description: 'Second' }] } }))
    const patched = await patch(api, saved.id, { criteria: { requirements: [{ description: 'Second' }, { description: 'First' }] } })
    assert.equal(patched.criteria.narrative, '1. Second\n2. First')
    assert.deepEqual(
      patched.criteria.requirements.map((requirement) => requirement.description),
      ['Second', 'First'],
    )
  })

  it('a template without requirements has an empty narrative', async () => {
    const saved = await create(api)
    assert.deepEqual(saved.criteria, { narrative: '', requirements: [] })
  })
})

describe('derived read-only fields (docs/api.md §2.3)', () => {
  it('derived fields sent in a create are ignored and computed', async () => {
    const saved = await create(
      api,
      aTemplate({
        type: 'award',
        tag: ['tactics'],
        id: 987654,
        alignment: [{ targetName: 'forged', targetUrl: 'https://evil.example' }],
        achievementType: 'Degree',
        issuedCount: 1000,
        coIssuers: [{ name: 'Forged Partner', role: 'representative', isVerified: true }],
        criteria: { narrative: '1. Forged', requirements: [{ description: 'Real', id: 424242 }] },
      }),
    )
    assert.notEqual(saved.id, 987654)
    assert.equal(saved.achievementType, 'Award')
    assert.equal(saved.issuedCount, 0)
    assert.deepEqual(
      saved.alignment.map((alignment) => alignment.targetName),
      ['tactics'],
    )
    assert.deepEqual(
      saved.coIssuers.map((coIssuer) => coIssuer.name),
      ['Chess Club'],
    )
    assert.equal(saved.criteria.narrative, '1. Real')
    assert.notEqual(saved.criteria.requirements[0]!.id, 424242)
    assert.deepEqual(await read(api, saved.id), saved)
  })

  it('a template read sent back as a patch is accepted and changes nothing but updatedAt', async () => {
    const saved = await create(
      api,
      aTemplate({
        nameEn: 'Opening theory',
        tag: ['openings', '체스'],
        program: { name: 'Ladder', url: 'https://chess.example/ladder', isPublic: true },
        criteria: { requirements: [{ type: 'score', description: 'Reach 1500', url: 'https://chess.example/elo' }, { url: 'https://chess.example/x' }] },
      }),
    )
    const { criteria, updatedAt: _, ...rest } = await patch(api, saved.id, saved)
    const { criteria: savedCriteria, updatedAt: __, ...savedRest } = saved
    assert.deepEqual(rest, savedRest)
    // Sending criteria.requirements replaces them (rule 5): same content, new ids.
    assert.equal(criteria.narrative, savedCriteria.narrative)
    assert.deepEqual(
      criteria.requirements.map(({ id: _id, ...requirement }) => requirement),
      savedCriteria.requirements.map(({ id: _id, ...requirement }) => requirement),
    )
  })

  it('derived fields are ignored whatever type their value has', async () => {
    const saved = await create(api, aTemplate({ criteria: { requirements: [{ description: 'A' }] } }))
    const patched = await patch(api, saved.id, {
      id: 'not a number',
      alignment: null,
      achievementType: 7,
      issuedCount: 'many',
      coIssuers: { name: 'x' },
      createdAt: false,
      updatedAt: [],
      criteria: { narrative: { forged: true } },
    })
    const { updatedAt: _, ...rest } = patched
    const { updatedAt: __, ...before } = saved
    assert.deepEqual(rest, before)
  })

  it('derived fields sent in a patch are ignored', async () => {
    const saved = await create(api, aTemplate({ tag: ['tactics'], criteria: { requirements: [{ description: 'A' }] } }))
    const patched = await patch(api, saved.id, {
      id: saved.id + 1000,
      alignment: [],
      achievementType: 'License',
      issuedCount: 5,
      coIssuers: [],
      criteria: { narrative: 'forged' },
    })
    assert.equal(patched.id, saved.id)
    assert.deepEqual(patched.alignment, saved.alignment)
    assert.equal(patched.achievementType, 'CertificateOfCompletion')
    assert.equal(patched.issuedCount, 0)
    assert.deepEqual(patched.coIssuers, saved.coIssuers)
    assert.deepEqual(patched.criteria, saved.criteria)
  })
})

describe('achievementType (docs/decisions/0011-templates.md)', () => {
  const MAPPING = {
    completion: 'CertificateOfCompletion',
    activity: 'CoCurricular',
    license: 'License',
    career: 'ext:CareerExperience',
    award: 'Award',
    recommendation: 'ext:Recommendation',
    membership: 'Membership',
    degree: 'Degree',
  }

  for (const [type, achievementType] of Object.entries(MAPPING)) {
    it(`type ${type} reads as achievementType ${achievementType}`, async () => {
      const saved = await create(api, aTemplate({ type }))
      assert.equal(saved.type, type)
      assert.equal(saved.achievementType, achievementType)
      assert.equal((await read(api, saved.id)).achievementType, achievementType)
    })
  }

  it('a patch of type changes achievementType', async () => {
    const saved = await create(api, aTemplate({ type: 'completion' }))
    const patched = await patch(api, saved.id, { type: 'membership' })
    assert.equal(patched.achievementType, 'Membership')
    assert.equal((await read(api, saved.id)).achievementType, 'Membership')
  })
})

describe('alignment (docs/api.md §2.3)', () => {
  it('there is one alignment per tag, in tag order, targeting /skills/<encoded tag>', async () => {
    const tags = ['Endgame theory', '체스', 'C#/C++ & Go?', '100%']
    const saved = await create(api, aTemplate({ tag: tags }))
    assert.equal(saved.alignment.length, tags.length)
    saved.alignment.forEach((alignment, index) => {
      const tag = tags[index]!
      assert.deepEqual(alignment.type, ['Alignment'])
      assert.equal(alignment.targetName, tag)
      assert.equal(alignment.targetUrl, `${ORIGIN}/skills/${encodeURIComponent(tag)}`)
      assert.ok(alignment.targetUrl.endsWith(`/skills/${encodeURIComponent(tag)}`))
      assert.equal(decodeURIComponent(new URL(alignment.targetUrl).pathname.split('/').at(-1)!), tag)
    })
  })

  it('alignment follows a patch of tags', async () => {
    const saved = await create(api, aTemplate({ tag: ['a', 'b'] }))
    const patched = await patch(api, saved.id, { tag: ['c'] })
    assert.deepEqual(
      patched.alignment.map((alignment) => alignment.targetName),
      ['c'],
    )
    assert.deepEqual((await patch(api, saved.id, { tag: [] })).alignment, [])
  })
})

describe('coIssuers (docs/api.md §2.3)', () => {
  it('the first co-issuer is the club itself as representative', async () => {
    const saved = await create(api)
    assert.equal(saved.coIssuers.length, 1)
    const [first] = saved.coIssuers
    assert.equal(first!.role, 'representative')
    assert.equal(first!.name, 'Chess Club')
    assert.equal(first!.isVerified, false)
  })

  it("the representative's isVerified follows the club's commercial attestation", async () => {
    const saved = await create(api)
    await api.issuer.clubs.setVerified('chess', true)
    assert.equal((await read(api, saved.id)).coIssuers[0]!.isVerified, true)
  })
})

describe('issuedCount (docs/api.md §2.3)', () => {
  it('a new template has issuedCount 0', async () => {
    assert.equal((await create(api)).issuedCount, 0)
  })
})

/**
 * The one template write path: v2, v1 and legacy bodies are mapped onto one draft, and
 * create and patch apply the rules of docs/api.md §4.10 to it in one place.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import * as v from 'valibot'
import { newTemplate } from '../../../core/achievements/create.ts'
import { draftFromLegacy, legacyFormSchema } from '../../../core/achievements/legacy-form.ts'
import { applyTemplateChanges } from '../../../core/achievements/patch.ts'
import { changesFromV2, draftFromV2, templateCreateSchema, templatePatchSchema } from '../../../core/achievements/schema.ts'
import { changesFromV1, draftFromV1, v1FormCreateSchema, v1FormPatchSchema } from '../../../core/achievements/v1-form.ts'
import type { AchievementTemplate } from '../../../core/achievements/template.ts'

const NOW = Date.UTC(2026, 0, 1)
const LATER = NOW + 60_000

/** One template, as each surface writes it. */
const common = { name: 'Endgame', description: 'Won an endgame.', type: 'award', prefix: 'CHS' }
const requirements = [{ description: 'Win a rook ending', type: 'score' }, { url: 'https://chess.example/study' }]
const v2Body = {
  ...common,
  tag: [' chess ', 'endgame', 'chess'],
  criteria: { requirements },
  program: { name: 'Club league', url: 'https://chess.example/league', isPublic: true },
  achievementBadgeDesignId: 3,
}
const v1Body = { ...common, tags: v2Body.tag, requirements, program: v2Body.program, achievementBadgeDesignId: 3 }
const legacyBody = {
  ...common,
  tags: v2Body.tag,
  requirements,
  program_name: 'Club league',
  program_url: 'https://chess.example/league',
  achievementBadgeDesignId: 3,
}

function created(draft: Parameters<typeof newTemplate>[1]): AchievementTemplate {
  return { ...newTemplate('chess', draft, NOW), id: 7, requirements: [], issuedCount: 0 }
}

describe('one template write path', () => {
  it('v2, v1 and legacy bodies of one template create the same template', () => {
    const fromV2 = newTemplate('chess', draftFromV2(v.parse(templateCreateSchema, v2Body)), NOW)
    const fromV1 = newTemplate('chess', draftFromV1(v.parse(v1FormCreateSchema, v1Body)), NOW)
    const fromLegacy = newTemplate('chess', draftFromLegacy(v.parse(legacyFormSchema, legacyBody)), NOW)
    assert.deepEqual(fromV1, fromV2)
    assert.deepEqual(fromLegacy, fromV2)
    assert.deepEqual(fromV2.tag, ['chess', 'endgame'])
    assert.deepEqual(fromV2.requirements, [
      { type: 'score', description: 'Win a rook ending', url: null, order: 0 },
      { type: null, description: null, url: 'https://chess.example/study', order: 1 },
    ])
    assert.equal(fromV2.prefix, 'CHS')
    assert.equal(fromV2.badgeDesignId, 3)
  })

  it('a create takes the defaults of the blank template, and mirrors the description (rule 7)', () => {
    const template = newTemplate('chess', draftFromV2(v.parse(templateCreateSchema, { name: 'Opening', description: 'Studied.' })), NOW)
    assert.deepEqual(template, {
      club: 'chess',
      name: 'Opening',
      nameEn: null,
      type: 'completion',
      description: 'Studied.',
      descriptionEn: null,
      imprintDescription: 'Studied.',
      imprintDescriptionEn: null,
      tag: [],
      requirements: [],
      program: null,
      coIssuers: [],
      prefix: null,
      courseBeginAt: null,
      courseEndAt: null,
      badgeDesignId: null,
      certificateDesignId: null,
      // Not engraved: no reminders unless asked (docs/decisions/0047-claims-and-expiry.md).
      expiryReminders: [],
      createdAt: NOW,
      updatedAt: NOW,
    })
  })

  it('an empty patch changes nothing but updatedAt, on v2 and on v1', () => {
    const current = created(draftFromV1(v.parse(v1FormCreateSchema, { ...v1Body, courseBeginAt: '2026-03-01T09:00:00Z', imprintDescription: 'Engraved.' })))
    for (const changes of [changesFromV2(v.parse(templatePatchSchema, {})), changesFromV1(v.parse(v1FormPatchSchema, {}))]) {
      assert.deepEqual(applyTemplateChanges(current, changes, LATER), { ...current, updatedAt: LATER })
    }
  })

  it('every member a v1 patch sends reaches the template', () => {
    const current = created(draftFromV2(v.parse(templateCreateSchema, { name: 'Opening', description: 'Studied.' })))
    const body = {
      name: 'Middlegame',
      nameEn: 'Middlegame',
      type: 'activity',
      description: 'Planned.',
      descriptionEn: 'Planned.',
      imprintDescription: 'Engraved.',
      imprintDescriptionEn: 'Engraved.',
      tags: ['plans'],
      program: { name: 'League', type: 'season', url: 'https://chess.example/', isPublic: true },
      prefix: 'MID',
      courseBeginAt: '2026-03-01T09:00:00Z',
      courseEndAt: '2026-04-01T09:00:00Z',
      achievementBadgeDesignId: 4,
      achievementCertificateDesignId: 5,
    }
    const { tags, achievementBadgeDesignId, achievementCertificateDesignId, ...same } = body
    assert.deepEqual(applyTemplateChanges(current, changesFromV1(v.parse(v1FormPatchSchema, body)), LATER), {
      ...current,
      ...same,
      tag: tags,
      badgeDesignId: achievementBadgeDesignId,
      certificateDesignId: achievementCertificateDesignId,
      updatedAt: LATER,
    })
  })
})

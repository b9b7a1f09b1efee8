import { textChanges } from '../texts.ts'
import type { TemplateChanges, TemplateDraft } from '../draft.ts'
import type { TemplateCreateInput, TemplatePatchInput } from '../schema.ts'

/** A v2 body (spec §2.3) as changes: `tag`, `criteria.requirements` in array order, design ids. */
export function changesFromV2(body: TemplatePatchInput): TemplateChanges {
  return {
    ...textChanges(body),
    tag: body.tag,
    requirements: body.criteria?.requirements,
    program: body.program,
    prefix: body.prefix,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
  }
}

export function draftFromV2(body: TemplateCreateInput): TemplateDraft {
  return { ...changesFromV2(body), name: body.name, description: body.description }
}

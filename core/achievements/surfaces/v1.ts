import { textChanges } from '../texts.ts'
import type { TemplateChanges, TemplateDraft } from '../draft.ts'
import type { V1FormCreateInput, V1FormPatchInput } from '../v1-form.ts'

/** A v1 body (spec §4.12) as changes: `tags`, `requirements[]` with their `order`, course dates. */
export function changesFromV1(body: V1FormPatchInput): TemplateChanges {
  return {
    ...textChanges(body),
    tag: body.tags,
    requirements: body.requirements,
    program: body.program,
    prefix: body.prefix,
    courseBeginAt: body.courseBeginAt,
    courseEndAt: body.courseEndAt,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
  }
}

export function draftFromV1(body: V1FormCreateInput): TemplateDraft {
  return { ...changesFromV1(body), name: body.name, description: body.description }
}

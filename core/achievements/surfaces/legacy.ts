import type { TemplateDraft } from '../draft.ts'
import type { LegacyFormInput } from '../legacy-form.ts'

/**
 * A legacy form body (spec §2.12) as a draft. Two rules are the legacy operation's own: a form sent
 * without a description takes its name as the description, since every template has one (spec §4.10
 * rule 1), and a program given here is public, since the legacy operation had no such switch and
 * showed every program.
 */
export function draftFromLegacy(body: LegacyFormInput): TemplateDraft {
  const hasProgram = body.program_name || body.program_type || body.program_url
  return {
    name: body.name,
    type: body.type,
    description: body.description ?? body.name,
    tag: body.tags,
    requirements: body.requirements,
    program: hasProgram ? { name: body.program_name, url: body.program_url, type: body.program_type, isPublic: true } : undefined,
    prefix: body.prefix,
    courseBeginAt: body.course_begin_at,
    courseEndAt: body.course_end_at,
    badgeDesignId: body.achievementBadgeDesignId,
    certificateDesignId: body.achievementCertificateDesignId,
  }
}

import type { Program, RequirementType, TemplateType } from './template.ts'

/**
 * What a surface (v2, v1, legacy) asks to write, in the template's own words: each surface maps its
 * validated body onto these, and the write rules of docs/api.md §4.10 apply to these alone (create.ts,
 * patch.ts). A member left `undefined` is not written: a patch keeps it, a create takes its default.
 */
export interface RequirementDraft {
  type?: RequirementType | null | undefined
  description?: string | null | undefined
  url?: string | null | undefined
  /** What the client sent (v1, legacy); without it the array position is the order. */
  order?: number | undefined
}

export interface TemplateChanges {
  name?: string | undefined
  nameEn?: string | null | undefined
  type?: TemplateType | undefined
  description?: string | undefined
  descriptionEn?: string | null | undefined
  /** `null`: mirror the description (docs/api.md §4.10 rule 7). */
  imprintDescription?: string | null | undefined
  imprintDescriptionEn?: string | null | undefined
  tag?: string[] | undefined
  /** Rule 5: replaces the whole list. */
  requirements?: RequirementDraft[] | undefined
  /** Rule 6: merged key by key; `null` removes it. */
  program?: { [K in keyof Program]?: Program[K] | undefined } | null | undefined
  prefix?: string | null | undefined
  courseBeginAt?: string | null | undefined
  courseEndAt?: string | null | undefined
  badgeDesignId?: number | null | undefined
  certificateDesignId?: number | null | undefined
  /** Replaces the whole list; `[]` removes every reminder. */
  expiryReminders?: string[] | undefined
}

/** A template to create: rule 1, a name and a description. */
export interface TemplateDraft extends TemplateChanges {
  name: string
  description: string
}

import type { FieldError } from '../../core/errors.ts'
import type { TemplateCreateBody, TemplatePatchBody } from '../../core/inputs.ts'
import type { TemplateView } from '../../core/achievements/present.ts'

/** One requirement row of the form, as typed. */
export interface RequirementRow {
  type: string
  description: string
  url: string
}

/**
 * The template form as typed (docs/admin-console.md § Templates): strings, so that a refused form is shown
 * again with exactly what was sent. `tag` holds one tag a line; empty requirement rows are not kept.
 */
export interface TemplateFormValues {
  name: string
  nameEn: string
  type: string
  description: string
  descriptionEn: string
  imprintDescription: string
  imprintDescriptionEn: string
  tag: string
  prefix: string
  /** Durations separated by commas or spaces (`P30D, P7D`). */
  expiryReminders: string
  achievementBadgeDesignId: string
  achievementCertificateDesignId: string
  programName: string
  programUrl: string
  programPublic: boolean
  /** Whether the form showed a program: clearing its fields then removes it (a private one is not shown). */
  programShown: boolean
  requirements: RequirementRow[]
}

/** Browsers send a textarea's line breaks as CRLF; the API's multi-line texts hold `\n`. */
const lines = (text: string) => text.replace(/\r\n?/g, '\n')

export const emptyForm = (): TemplateFormValues => ({
  name: '',
  nameEn: '',
  type: 'completion',
  description: '',
  descriptionEn: '',
  imprintDescription: '',
  imprintDescriptionEn: '',
  tag: '',
  prefix: '',
  expiryReminders: '',
  achievementBadgeDesignId: '',
  achievementCertificateDesignId: '',
  programName: '',
  programUrl: '',
  programPublic: false,
  programShown: false,
  requirements: [],
})

/** The form of a stored template; an engraved description that mirrors the description is shown empty (rule 7). */
export function formOfTemplate(template: TemplateView): TemplateFormValues {
  return {
    name: template.name,
    nameEn: template.nameEn ?? '',
    type: template.type,
    description: template.description,
    descriptionEn: template.descriptionEn ?? '',
    imprintDescription: template.imprintDescription === template.description ? '' : template.imprintDescription,
    imprintDescriptionEn: template.imprintDescriptionEn ?? '',
    tag: template.tag.join('\n'),
    prefix: template.prefix ?? '',
    expiryReminders: (template.expiryReminders ?? []).join(', '),
    achievementBadgeDesignId: template.achievementBadgeDesignId === null ? '' : String(template.achievementBadgeDesignId),
    achievementCertificateDesignId: template.achievementCertificateDesignId === null ? '' : String(template.achievementCertificateDesignId),
    programName: template.program?.name ?? '',
    programUrl: template.program?.url ?? '',
    programPublic: template.program?.isPublic ?? false,
    programShown: template.program !== undefined,
    requirements: template.criteria.requirements.map((requirement) => ({
      type: requirement.type ?? '',
      description: requirement.description ?? '',
      url: requirement.url ?? '',
    })),
  }
}

/** The form as posted. Requirement rows are `requirement.N.type|description|url`. */
export function formOfPost(form: URLSearchParams): TemplateFormValues {
  const text = (name: string) => form.get(name) ?? ''
  const rows = new Map<number, RequirementRow>()
  for (const [key, value] of form) {
    const match = /^requirement\.(\d{1,3})\.(type|description|url)$/.exec(key)
    if (!match) continue
    const index = Number(match[1])
    const row = rows.get(index) ?? { type: '', description: '', url: '' }
    row[match[2] as keyof RequirementRow] = match[2] === 'description' ? lines(value) : value
    rows.set(index, row)
  }
  return {
    name: text('name'),
    nameEn: text('nameEn'),
    type: text('type'),
    description: lines(text('description')),
    descriptionEn: lines(text('descriptionEn')),
    imprintDescription: lines(text('imprintDescription')),
    imprintDescriptionEn: lines(text('imprintDescriptionEn')),
    tag: lines(text('tag')),
    prefix: text('prefix'),
    expiryReminders: text('expiryReminders'),
    achievementBadgeDesignId: text('achievementBadgeDesignId'),
    achievementCertificateDesignId: text('achievementCertificateDesignId'),
    programName: text('programName'),
    programUrl: text('programUrl'),
    programPublic: form.get('programPublic') === 'on',
    programShown: form.get('programShown') === '1',
    requirements: [...rows.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, row]) => row)
      // A row left blank is a spare row of the form, not a requirement.
      .filter((row) => row.type !== '' || row.description.trim() !== '' || row.url.trim() !== ''),
  }
}

/** A design choice: `""` is the built-in design; anything else goes to the API as a number, which judges it. */
const designChoice = (value: string) => (value === '' ? null : /^\d+$/.test(value) ? Number(value) : value)

/**
 * The API's v2 body of the form (docs/api.md §2.3), for `issuer.achievements.create` or `patch`: every
 * member is sent, so the API's rules judge the whole form. `hasDesigns` leaves the design members out
 * where the form had no choice to offer.
 */
export function bodyOfForm(values: TemplateFormValues, { hasDesigns }: { hasDesigns: boolean }): TemplateCreateBody & TemplatePatchBody {
  const program =
    values.programName.trim() !== '' || values.programUrl.trim() !== '' || values.programPublic
      ? { name: values.programName, url: values.programUrl, isPublic: values.programPublic }
      : values.programShown
        ? null
        : undefined
  return {
    name: values.name,
    nameEn: values.nameEn,
    type: values.type as TemplateCreateBody['type'],
    description: values.description,
    descriptionEn: values.descriptionEn,
    imprintDescription: values.imprintDescription,
    imprintDescriptionEn: values.imprintDescriptionEn,
    tag: values.tag
      .split('\n')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== ''),
    criteria: {
      requirements: values.requirements.map((row) => ({
        type: (row.type === '' ? null : row.type) as NonNullable<NonNullable<TemplateCreateBody['criteria']>['requirements']>[number]['type'],
        description: row.description,
        url: row.url,
      })),
    },
    prefix: values.prefix,
    expiryReminders: values.expiryReminders.split(/[\s,]+/).filter((duration) => duration !== ''),
    ...(program === undefined ? {} : { program }),
    ...(hasDesigns
      ? {
          achievementBadgeDesignId: designChoice(values.achievementBadgeDesignId) as number | null,
          achievementCertificateDesignId: designChoice(values.achievementCertificateDesignId) as number | null,
        }
      : {}),
  }
}

/**
 * The form field a problem's `errors[].path` names: `tag.3` is the tags box, `criteria.requirements.2.url`
 * the url of the third row, a whole requirement (`requirement-empty`) its description. `null`: no field
 * of the form, so the error is shown above it.
 */
export function fieldOfPath(path: string): string | null {
  const requirement = /^criteria\.requirements\.(\d+)(?:\.(type|description|url))?$/.exec(path)
  if (requirement) return `requirement.${requirement[1]}.${requirement[2] ?? 'description'}`
  if (path === 'criteria.requirements' || path === 'criteria') return 'requirements'
  if (path.startsWith('tag')) return 'tag'
  if (path.startsWith('expiryReminders')) return 'expiryReminders'
  const program = /^program\.(name|url|isPublic)$/.exec(path)
  if (program) return { name: 'programName', url: 'programUrl', isPublic: 'programPublic' }[program[1] as 'name' | 'url' | 'isPublic']
  if (path === 'program') return 'programName'
  const top = [
    'name',
    'nameEn',
    'type',
    'description',
    'descriptionEn',
    'imprintDescription',
    'imprintDescriptionEn',
    'prefix',
    'achievementBadgeDesignId',
    'achievementCertificateDesignId',
  ]
  return top.includes(path) ? path : null
}

/** Field errors grouped by form field (`fieldOf`: the template form's, unless another form's is given); the ones naming no field under `''`. */
export function errorsByField(errors: readonly FieldError[], fieldOf: (path: string) => string | null = fieldOfPath): Map<string, string[]> {
  const byField = new Map<string, string[]>()
  for (const error of errors) {
    const field = fieldOf(error.path) ?? ''
    const codes = byField.get(field) ?? []
    if (!codes.includes(error.message)) codes.push(error.message)
    byField.set(field, codes)
  }
  return byField
}

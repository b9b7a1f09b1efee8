import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { bodyOfForm, emptyForm, errorsByField, formOfPost, formOfTemplate, type TemplateFormValues } from './template-form.ts'
import { templateFormPage, templateListPage, templatePath } from './template-pages.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { Words } from './pages.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { coIssuerHandlers } from './co-issuers.ts'
import type { CoIssuerForm } from './co-issuer-section.ts'
import { isProblem } from './is-problem.ts'
import { doneNoticeOf, numericIdOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  created: { ko: '템플릿을 만들었습니다.', en: 'Template created.' },
  saved: { ko: '저장했습니다.', en: 'Saved.' },
  'co-issuer-added': { ko: '공동 발급자를 저장했습니다.', en: 'Co-issuer saved.' },
  'co-issuer-removed': { ko: '공동 발급자를 지웠습니다.', en: 'Co-issuer removed.' },
}

/** A template id of a path: digits only, so that anything else is simply not found. */
const idOf = (request: IRequest) => numericIdOf(request, 15)

/**
 * The Templates pages (docs/admin-console.md § Templates): the list, a new template and a template's
 * page, on the operations the API's routes call (`issuer.achievements.*`), for the session's club only.
 */
export function templateHandlers(frame: ConsoleFrame) {
  const { issuer, base, notFound } = frame
  const achievements = issuer.achievements
  // Every badge and certificate design of the club, for the choices (a club has a handful).
  const designsOf = async (club: string) => (await issuer.designs.list(club, { limit: '100' })).data

  // A template's texts may be long (10,000 characters a description, 100 requirements): the API's body limit.
  const body = { maxBytes: issuer.config.maxBodyBytes }

  const formPage = async (
    session: ConsoleSession,
    template: TemplateView | null,
    values: TemplateFormValues,
    status = 200,
    errors = new Map<string, string[]>(),
    done: Words | null = null,
    coIssuerForm?: CoIssuerForm,
  ) => {
    const formats = issuer.issuances.fileFormats
    return htmlResponse(
      templateFormPage(base, session, { template, values, errors, designs: await designsOf(session.club), done, coIssuerForm, formats }),
      status,
    )
  }

  /** Stores the form through `write`; a refusal shows the form again, as sent, with each error beside its field. */
  const save = async (
    session: ConsoleSession,
    form: URLSearchParams,
    template: TemplateView | null,
    write: (body: ReturnType<typeof bodyOfForm>) => Promise<TemplateView>,
  ) => {
    const values = formOfPost(form)
    const designs = await designsOf(session.club)
    try {
      const saved = await write(bodyOfForm(values, { hasDesigns: designs.length > 0 }))
      return seeOther(`${templatePath(base, saved.id)}?done=${template ? 'saved' : 'created'}`)
    } catch (error) {
      if (isProblem(error, 'achievement-not-found')) return notFound(session)
      if (!isProblem(error, 'validation-failed')) throw error
      const formats = issuer.issuances.fileFormats
      return htmlResponse(templateFormPage(base, session, { template, values, errors: errorsByField(error.errors ?? []), designs, formats }), 422)
    }
  }

  /** A template of the session's club, or `null`: another club's id is not found, as an unknown one. */
  async function readTemplate(session: ConsoleSession, id: number | null): Promise<TemplateView | null> {
    if (id === null) return null
    try {
      return await achievements.read(session.club, id)
    } catch (error) {
      if (isProblem(error, 'achievement-not-found')) return null
      throw error
    }
  }

  return {
    'GET /templates': async (session, request) => {
      try {
        const page = await achievements.list(session.club, { cursor: new URL(request.url).searchParams.get('cursor') })
        return htmlResponse(templateListPage(base, session, page))
      } catch (error) {
        // A cursor that is not one of this list's.
        if (isProblem(error, 'validation-failed')) return notFound(session)
        throw error
      }
    },
    'GET /templates/new': async (session) => {
      return formPage(session, null, emptyForm())
    },
    'POST /templates/new': {
      body,
      handle: async ({ session, form }) => save(session, form, null, (written) => achievements.create(session.club, written)),
    },
    'GET /templates/:id': async (session, request) => {
      const template = await readTemplate(session, idOf(request))
      if (!template) return notFound(session)
      const done = doneNoticeOf(request, DONE)
      return formPage(session, template, formOfTemplate(template), 200, undefined, done)
    },
    'POST /templates/:id': {
      body,
      handle: async ({ session, form }, request) => {
        const id = idOf(request)
        const template = await readTemplate(session, id)
        if (!template || id === null) return notFound(session)
        return save(session, form, template, (written) => achievements.patch(session.club, id, written))
      },
    },
    ...coIssuerHandlers(frame, {
      readTemplate,
      refused: (session, template, coIssuerForm) => formPage(session, template, formOfTemplate(template), 422, undefined, null, coIssuerForm),
    }),
  } satisfies Partial<ConsoleHandlers>
}

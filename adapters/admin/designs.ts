import type { IRequest } from 'itty-router'
import { htmlResponse, seeOther } from './responses.ts'
import { bodyOfDesignForm, designFieldOfPath, emptyDesignForm, formOfDesign, formOfDesignPost } from './design-form.ts'
import { designFormPage, designListPage, designPath } from './design-pages.ts'
import { errorsByField } from './template-form.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { DesignView } from '../../core/designs/present.ts'
import type { Words } from './pages.ts'
import type { ConsoleFrame, SessionForm } from './frame.ts'
import type { ConsoleHandlers } from './route-handlers.ts'
import { isProblem } from './is-problem.ts'
import { doneNoticeOf, numericIdOf } from './request-values.ts'

const DONE: Record<string, Words> = {
  created: { ko: '디자인을 만들었습니다.', en: 'Design created.' },
  saved: { ko: '저장했습니다.', en: 'Saved.' },
}

/** A design or template id of a path: digits only, so that anything else is simply not found. */
export const pathIdOf = (request: IRequest) => numericIdOf(request, 15)

/**
 * The Designs pages (docs/admin-console.md § Designs): the list, a new badge or certificate design and a
 * design's page, on the operations the API's routes call (`issuer.designs.*`), for the session's club
 * only. The forms are multipart (the badge image and the logo are files), read by the frame's one guard.
 */
export function designHandlers(frame: ConsoleFrame) {
  const { issuer, base, notFound } = frame
  const designs = issuer.designs
  // Two images of 256 KiB and a few short fields: the API's body limit (1 MiB) holds them with room.
  const body = { maxBytes: issuer.config.maxBodyBytes, multipart: true }

  /** Stores the form through `write`; a refusal shows the form again, as sent, with each error beside its field. */
  const save = async (
    { session, form, files }: SessionForm,
    design: DesignView | null,
    write: (body: ReturnType<typeof bodyOfDesignForm>) => Promise<DesignView>,
  ) => {
    // A design's kind is fixed once made: its page shows (and sends) the fields of the stored kind.
    const values = { ...formOfDesignPost(form), ...(design ? { kind: design.kind } : {}) }
    try {
      const saved = await write(bodyOfDesignForm(values, files))
      return seeOther(`${designPath(base, saved.id)}?done=${design ? 'saved' : 'created'}`)
    } catch (error) {
      if (isProblem(error, 'design-not-found')) return notFound(session)
      if (!isProblem(error, 'validation-failed')) throw error
      const errors = errorsByField(error.errors ?? [], designFieldOfPath)
      const page = designFormPage(base, session, { design, values, errors, detail: error.detail ?? null, formats: issuer.issuances.fileFormats })
      return htmlResponse(page, 422)
    }
  }

  /** A design of the session's club, or `null`: another club's id is not found, as an unknown one. */
  async function readDesign(session: ConsoleSession, id: number | null): Promise<DesignView | null> {
    if (id === null) return null
    try {
      return await designs.read(session.club, id)
    } catch (error) {
      if (isProblem(error, 'design-not-found')) return null
      throw error
    }
  }

  return {
    'GET /designs': async (session, request) => {
      try {
        const page = await designs.list(session.club, { cursor: new URL(request.url).searchParams.get('cursor') })
        return htmlResponse(designListPage(base, session, page))
      } catch (error) {
        // A cursor that is not one of this list's.
        if (isProblem(error, 'validation-failed')) return notFound(session)
        throw error
      }
    },
    'GET /designs/new': async (session, request) => {
      const kind = new URL(request.url).searchParams.get('kind') === 'certificate' ? 'certificate' : 'badge'
      return htmlResponse(
        designFormPage(base, session, { design: null, values: emptyDesignForm(kind), errors: new Map(), formats: issuer.issuances.fileFormats }),
      )
    },
    'POST /designs/new': { body, handle: async (checked) => save(checked, null, (written) => designs.create(checked.session.club, written)) },
    'GET /designs/:id': async (session, request) => {
      const design = await readDesign(session, pathIdOf(request))
      if (!design) return notFound(session)
      const done = doneNoticeOf(request, DONE)
      const page = designFormPage(base, session, { design, values: formOfDesign(design), errors: new Map(), formats: issuer.issuances.fileFormats, done })
      return htmlResponse(page)
    },
    'POST /designs/:id': {
      body,
      handle: async (checked, request) => {
        const id = pathIdOf(request)
        const design = await readDesign(checked.session, id)
        if (!design || id === null) return notFound(checked.session)
        return save(checked, design, (written) => designs.patch(checked.session.club, id, written))
      },
    },
  } satisfies Partial<ConsoleHandlers>
}

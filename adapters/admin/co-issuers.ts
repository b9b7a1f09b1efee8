import { ProblemError } from '../../core/errors.ts'
import { seeOther } from './responses.ts'
import { coIssuerFieldOfPath, type CoIssuerForm } from './co-issuer-section.ts'
import { errorsByField } from './template-form.ts'
import { templatePath } from './template-pages.ts'
import { pathIdOf } from './designs.ts'
import type { ConsoleSession } from '../../core/admins/sessions.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers, SessionFormHandler } from './route-handlers.ts'

/** What the Templates module lends: a template of the session's club (`null`: not found) and its page. */
export interface TemplatePages {
  readTemplate(session: ConsoleSession, id: number | null): Promise<TemplateView | null>
  /** The template's page with the co-issuer forms as sent and refused (422). */
  refused(session: ConsoleSession, template: TemplateView, form: CoIssuerForm): Promise<Response>
}

/**
 * `POST {base}/templates/{id}/co-issuers` adds a partner `{ name, url, isVerified }` and `.../co-issuers/remove`
 * removes one by URL (docs/admin-console.md § Co-issuers), through `issuer.achievements.coIssuers.*`, the
 * operations the admin CLI's `coissuer add` and `coissuer remove` call. 303 to the template's page; the
 * API's problems beside the fields (422); another club's template is 404.
 */
export function coIssuerHandlers({ issuer, base, notFound }: ConsoleFrame, pages: TemplatePages) {
  const coIssuers = issuer.achievements.coIssuers
  const change =
    (done: string, write: (session: ConsoleSession, id: number, form: URLSearchParams) => Promise<unknown>): SessionFormHandler =>
    async ({ session, form }, request) => {
      const id = pathIdOf(request)
      const template = await pages.readTemplate(session, id)
      if (!template || id === null) return notFound(session)
      try {
        await write(session, id, form)
        return seeOther(`${templatePath(base, id)}?done=${done}`)
      } catch (error) {
        if (error instanceof ProblemError && error.code === 'achievement-not-found') return notFound(session)
        if (!(error instanceof ProblemError && error.code === 'validation-failed')) throw error
        const values = {
          coIssuerName: form.get('coIssuerName') ?? '',
          coIssuerUrl: form.get('coIssuerUrl') ?? '',
          coIssuerVerified: form.get('coIssuerVerified') === 'on',
        }
        return pages.refused(session, template, { values, errors: errorsByField(error.errors ?? [], coIssuerFieldOfPath) })
      }
    }

  return {
    'POST /templates/:id/co-issuers': change('co-issuer-added', (session, id, form) =>
      coIssuers.add(session.club, id, {
        name: form.get('coIssuerName') ?? '',
        url: form.get('coIssuerUrl') ?? '',
        isVerified: form.get('coIssuerVerified') === 'on',
      }),
    ),
    'POST /templates/:id/co-issuers/remove': change('co-issuer-removed', (session, id, form) =>
      coIssuers.remove(session.club, id, { url: form.get('url') ?? '' }),
    ),
  } satisfies Partial<ConsoleHandlers>
}

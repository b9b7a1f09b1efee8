import * as v from 'valibot'
import { validationFailed } from '../errors.ts'
import { requireClub } from '../clubs/require.ts'
import { MAX } from './fields.ts'
import { plainText } from '../validation/plain-text.ts'
import { parseInput } from '../validation/parse-input.ts'
import { characterCount } from '../validation/text.ts'
import { isWebUrl, URL_MAX } from '../validation/url.ts'
import { presentTemplate, type CoIssuerView } from './present.ts'
import { requireTemplate } from './require.ts'
import type { IssuerContext } from '../context.ts'
import type { Stores } from '../ports/storage.ts'
import type { CoIssuer } from './template.ts'

/**
 * The co-issuers of a template (docs/api.md §2.3 `coIssuers`, docs/decisions/0012-co-issuers.md: added by the admin
 * CLI; v2 reads them only). A template lists the club itself as `representative`, then its partners, which
 * land in `achievement["x-partnerOrganizations"]` of the credentials issued afterwards; credentials issued
 * before keep the snapshot they were engraved from. A partner is identified by its URL.
 */

/** At most this many partners per template: they are printed on one certificate page. */
export const CO_ISSUERS_MAX = 20

/** An absolute http(s) URL, normalised as the URL standard does (`https://A.example` → `https://a.example/`). */
const partnerUrl = v.pipe(
  v.string('must-be-string'),
  v.trim(),
  v.check((value) => value !== '', 'required'),
  v.check(isWebUrl, 'invalid-url'),
  v.transform((value) => new URL(value).href),
  v.check((value) => value.length <= URL_MAX, 'too-long'),
)

export const coIssuerSchema = v.strictObject(
  {
    // Signed into every later credential: the plain-text rule of every other name (no control character).
    name: v.pipe(
      plainText('single-line'),
      v.trim(),
      v.check((value) => value !== '', 'required'),
      v.check((value) => characterCount(value) <= MAX.name, 'too-long'),
    ),
    url: partnerUrl,
    isVerified: v.optional(v.boolean('must-be-boolean'), false),
  },
  'unknown-field',
)

export const coIssuerRemoveSchema = v.strictObject({ url: partnerUrl }, 'unknown-field')

/** The co-issuers as read on v2: the club first as `representative`, then its partners in the order added. */
export async function listCoIssuers(ctx: IssuerContext, club: string, templateId: number): Promise<CoIssuerView[]> {
  return viewOf(ctx, ctx.storage, club, templateId)
}

/**
 * Adds a partner `{ name, url, isVerified? }` to a template. Adding a URL the template already lists
 * updates that partner's name and verified mark in place (same position): the command is idempotent, so
 * a provisioning script can run twice. More than `CO_ISSUERS_MAX` partners is 422 `too-many-co-issuers`.
 */
export async function addCoIssuer(ctx: IssuerContext, club: string, templateId: number, input: unknown): Promise<CoIssuerView[]> {
  const partner = parseInput(coIssuerSchema, input)
  return ctx.storage.transaction(
    async (tx) => {
      await requireClub(tx, club)
      const template = await requireTemplate(tx, club, templateId)
      const at = template.coIssuers.findIndex((existing) => sameUrl(existing.url, partner.url))
      const coIssuers: CoIssuer[] = at >= 0 ? template.coIssuers.map((existing, i) => (i === at ? partner : existing)) : [...template.coIssuers, partner]
      if (coIssuers.length > CO_ISSUERS_MAX) {
        throw validationFailed([{ message: 'too-many-co-issuers', path: 'url' }], `A template has at most ${CO_ISSUERS_MAX} co-issuers besides the club.`)
      }
      await tx.achievements.update({ ...template, coIssuers, updatedAt: ctx.clock.now() })
      return viewOf(ctx, tx, club, templateId)
    },
    { club },
  )
}

/** Removes the partner with this URL; a URL the template does not list is 422 `co-issuer-not-found` at `url`. */
export async function removeCoIssuer(ctx: IssuerContext, club: string, templateId: number, input: unknown): Promise<CoIssuerView[]> {
  const { url } = parseInput(coIssuerRemoveSchema, input)
  return ctx.storage.transaction(
    async (tx) => {
      await requireClub(tx, club)
      const template = await requireTemplate(tx, club, templateId)
      const coIssuers = template.coIssuers.filter((existing) => !sameUrl(existing.url, url))
      if (coIssuers.length === template.coIssuers.length) {
        throw validationFailed([{ message: 'co-issuer-not-found', path: 'url' }], `Template ${templateId} has no co-issuer ${url}.`)
      }
      await tx.achievements.update({ ...template, coIssuers, updatedAt: ctx.clock.now() })
      return viewOf(ctx, tx, club, templateId)
    },
    { club },
  )
}

/** Stored URLs from before this rule may be unnormalised: compare them normalised. */
function sameUrl(stored: string | null, url: string): boolean {
  return stored !== null && URL.canParse(stored) && new URL(stored).href === url
}

async function viewOf(ctx: IssuerContext, stores: Stores, club: string, templateId: number): Promise<CoIssuerView[]> {
  const owner = await requireClub(stores, club)
  const template = await requireTemplate(stores, club, templateId)
  // One place derives the read shape (presentTemplate), so the CLI shows what the template read shows.
  return presentTemplate(ctx.config, owner, template).coIssuers
}

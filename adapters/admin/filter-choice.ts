import type { CoreIssuer } from '../../core/core-issuer.ts'

/**
 * Every issuance of the issuances list's filter that is not revoked, as the list finds them, page by
 * page (docs/admin-console.md § Issuances): the filter the bulk form carries (template, status, search,
 * and the expiring and not-in-a-wallet boxes), so that "every row of this filter" is what the list
 * showed. `null` when more than `max` match. One walk for revoking and renewing.
 */
export async function issuancesOfFilter(
  issuances: CoreIssuer['issuances'],
  club: string,
  form: URLSearchParams,
  max: number,
): Promise<{ id: number; name: string }[] | null> {
  const query = {
    achievementId: form.get('achievementId') || null,
    status: form.get('status') || null,
    q: form.get('q'),
    by: form.get('by') || null,
    expiring: form.get('expiring') || null,
    claimed: form.get('claimed') || null,
  }
  const chosen: { id: number; name: string }[] = []
  let cursor: string | null = null
  do {
    const page = await issuances.search(club, { ...query, limit: '100', cursor })
    chosen.push(...page.data.filter((item) => item.status !== 'revoked').map((item) => ({ id: item.id, name: item.recipient.name })))
    if (chosen.length > max) return null
    cursor = page.meta.nextCursor
  } while (cursor !== null)
  return chosen
}

import { orderRequirements } from './order-requirements.ts'
import type { Requirement } from './template.ts'

/**
 * `criteria.narrative` (spec §2.3): one numbered line per requirement in requirement order, the url
 * appended in parentheses when present. Engraved verbatim into the next credential.
 */
export function criteriaNarrative(requirements: readonly Requirement[]): string {
  return orderRequirements(requirements)
    .map((requirement, index) => {
      const text = [requirement.description, requirement.url ? `(${requirement.url})` : null].filter(Boolean).join(' ')
      return `${index + 1}. ${text}`
    })
    .join('\n')
}

import type { Requirement } from './template.ts'

/**
 * docs/api.md §4.10 rule 8: requirements are ordered by `order` ascending, then `id` ascending,
 * everywhere they are read (narrative numbering, template detail, issuance `form`).
 */
export function orderRequirements<T extends Pick<Requirement, 'id' | 'order'>>(requirements: readonly T[]): T[] {
  return [...requirements].sort((a, b) => a.order - b.order || a.id - b.id)
}

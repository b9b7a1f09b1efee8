import { orderRequirements } from './order-requirements.ts'
import type { Requirement } from './template.ts'

/**
 * A run of white space holding a line break (LF, VT, FF, CR, NEL, LS, PS). Inside a requirement it
 * would split the requirement over several lines, one of which could read like a numbered line of
 * its own ("1. Win a game\n2. Forged"); the narrative has one line per requirement.
 */
const LINE_BREAK_RUN = /\s*[\n\v\f\r\u0085\u2028\u2029][\s\u0085]*/g

const oneLine = (text: string): string => text.replace(LINE_BREAK_RUN, ' ').trim()

/**
 * `criteria.narrative` (docs/api.md §2.3): one numbered line per requirement in requirement order, the url
 * appended in parentheses when present. Engraved verbatim into the next credential. Line breaks inside
 * a requirement become a space, and each line is trimmed, so that the numbering stays unambiguous.
 */
export function criteriaNarrative(requirements: readonly Requirement[]): string {
  return orderRequirements(requirements)
    .map((requirement, index) => {
      const text = [requirement.description, requirement.url ? `(${requirement.url})` : null].filter(Boolean).join(' ')
      return `${index + 1}. ${oneLine(text)}`
    })
    .join('\n')
}

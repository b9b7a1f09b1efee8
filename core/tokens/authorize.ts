import { ProblemError, insufficientScope } from '../errors.ts'
import { toScopeString, type ScopeName } from '../scopes.ts'
import type { Principal } from './principal.ts'

/**
 * Checks that the caller may run an operation needing `scope` on `club`. A token is usable for its own
 * club only (docs/api.md §5 item 5): another club is 403 `club-forbidden` whether or not that club exists.
 */
export function authorize(principal: Principal, club: string, scope: ScopeName): void {
  if (principal.club !== club) {
    throw new ProblemError('club-forbidden', { detail: 'This access token belongs to another club.' })
  }
  if (!principal.scopes.includes(scope)) throw insufficientScope(toScopeString(scope))
}

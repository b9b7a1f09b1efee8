import type { IRequest } from 'itty-router'
import type { Words } from './pages.ts'

/** The path's `:id` when it has the shape of `pattern`, else `null`: anything else is simply not found. */
export const idParamOf = (request: IRequest, pattern: RegExp): string | null => {
  const id = request.params['id'] ?? ''
  return pattern.test(id) ? id : null
}

/** A numeric `:id` of at most `digits` digits and no leading zero, or `null` (then not found). */
export const numericIdOf = (request: IRequest, digits: number): number | null => {
  const id = idParamOf(request, new RegExp(`^[1-9]\\d{0,${digits - 1}}$`))
  return id === null ? null : Number(id)
}

/**
 * The notice that `?done=` names among a page's `notices` (where a form sent the admin back after it
 * worked), or `null`; a name the page does not have, `constructor` too, is no notice.
 */
export const doneNoticeOf = (request: Request, notices: Readonly<Record<string, Words>>): Words | null => {
  const done = new URL(request.url).searchParams.get('done') ?? ''
  return Object.hasOwn(notices, done) ? notices[done]! : null
}

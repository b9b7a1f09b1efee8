import type { IRequest, RouterType } from 'itty-router'
import { CONSOLE_PATHS, CONSOLE_ROUTES, type ConsoleGuard } from './route-table.ts'
import type { ConsoleFrame } from './frame.ts'
import type { ConsoleHandlers, GuardedHandlers, SessionFormRoute } from './route-handlers.ts'

type Handler = (request: IRequest) => Response | Promise<Response>

/** `handler` behind its row's guard (route-table.ts says what each guard checks). */
function guarded(guard: ConsoleGuard, handler: GuardedHandlers[ConsoleGuard], frame: ConsoleFrame): Handler {
  if (guard === 'session') return frame.withSession(handler as GuardedHandlers['session'])
  if (guard !== 'session-form') return handler as Handler
  const route = handler as GuardedHandlers['session-form']
  // A bare handler takes a short form: 16 KiB at most, no files.
  const { body, handle }: Partial<SessionFormRoute> & Pick<SessionFormRoute, 'handle'> = typeof route === 'function' ? { handle: route } : route
  return async (request) => {
    const posted = await frame.sessionForm(request, body?.maxBytes, body)
    return posted instanceof Response ? posted : handle(posted, request)
  }
}

/**
 * Routes every row of the table to its handler behind its guard, in the table's order, then every
 * other method of each path to `refuse` with the path's `Allow`.
 */
export function mountConsoleRoutes(router: RouterType, handlers: ConsoleHandlers, frame: ConsoleFrame, refuse: (allow: string) => Response): void {
  for (const { method, path, guard } of CONSOLE_ROUTES) {
    const handler = guarded(guard, handlers[`${method} ${path}` as keyof ConsoleHandlers], frame)
    if (method === 'GET') router.get(path, handler)
    else router.post(path, handler)
  }
  for (const [path, allow] of CONSOLE_PATHS) router.all(path, () => refuse(allow))
}

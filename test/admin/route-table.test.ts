/**
 * The console's one route table (adapters/admin/route-table.ts) is what the console serves: each row is
 * routed behind its guard, every other method of a path is 405 with the path's `Allow`, and the menu is
 * the table's menu rows in order. (That each row has a handler, and each handler a row, the type check
 * holds: `ConsoleHandlers`.)
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CONSOLE_PATHS, CONSOLE_ROUTES } from '../../adapters/admin/route-table.ts'
import { openConsole, type Console } from '../support/admin-console.ts'

/** A path of the table with something in each parameter. */
const concrete = (path: string) => `/admin${path.replace(/:\w+/g, '1')}`

describe('staff console: the route table', () => {
  let app: Console
  before(async () => {
    app = await openConsole()
  })
  after(() => app.close())

  it('answers every other method of each path 405 with the methods of its rows', async () => {
    assert.ok(CONSOLE_PATHS.length >= 50, `${CONSOLE_PATHS.length} paths`)
    for (const [path, allow] of CONSOLE_PATHS) {
      const response = await app.issuer.fetch(new Request(`${app.origin}${concrete(path)}`, { method: 'PUT' }))
      assert.equal(response.status, 405, `PUT ${path}`)
      assert.equal(response.headers.get('allow'), allow, `Allow of ${path}`)
      const methods = new Set(CONSOLE_ROUTES.filter((route) => route.path === path).map((route) => route.method))
      assert.equal(allow, [...(methods.has('GET') ? ['GET', 'HEAD'] : []), ...(methods.has('POST') ? ['POST'] : [])].join(', '))
    }
  })

  it('routes each row behind its guard: without a session, a page or a form of a session is sent to the login page', async () => {
    for (const { method, path, guard } of CONSOLE_ROUTES) {
      const response = await app.issuer.fetch(
        new Request(`${app.origin}${concrete(path)}`, {
          method,
          ...(method === 'POST' ? { headers: { origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=x' } : {}),
        }),
      )
      assert.notEqual(response.status, 405, `${method} ${path} is routed`)
      if (guard === 'session' || guard === 'session-form') {
        assert.equal(response.status, 303, `${method} ${path} without a session`)
        assert.equal(response.headers.get('location'), '/admin/login')
      }
    }
  })

  it('shows the menu rows of the table, in its order, on every page behind login', async () => {
    await app.adminWithPassword('chess', 'staff@chess.example')
    const { cookie } = await app.login('staff@chess.example')
    const page = await (await app.get('/admin/', cookie)).text()
    const nav = /<nav>([\s\S]*?)<\/nav>/.exec(page)![1]!
    const links = [...nav.matchAll(/<a href="([^"]+)">([^<]+) <span lang="en">([^<]+)<\/span><\/a>/g)].map(([, href, ko, en]) => ({ href, ko, en }))
    const menu = CONSOLE_ROUTES.flatMap((route) => ('menu' in route ? [{ href: `/admin${route.path}`, ...route.menu }] : []))
    assert.equal(menu.length, 8)
    assert.deepEqual(links, menu)
  })
})

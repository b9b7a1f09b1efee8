/**
 * Who serves the console (docs/decisions/0049-console-route-table.md § A folder beside http/, which it uses): the
 * composition root's `createFetchHandler` and `createIssuer` do; the bare face of adapters/http/ does
 * only when handed the console as its `console` option.
 */
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createFetchHandler as createHttpFetchHandler } from '../../adapters/http/index.ts'
import { createAdminSurface } from '../../adapters/admin/surface.ts'
import { createFetchHandler } from '../../index.ts'
import { openConsole, type Console } from '../support/admin-console.ts'

describe('staff console: mounted by the composition root', () => {
  let app: Console
  before(async () => {
    app = await openConsole()
  })
  after(() => app.close())
  const login = () => new Request(`${app.origin}/admin/login`)

  it('is served by createIssuer and by the root createFetchHandler', async () => {
    for (const fetch of [app.issuer.fetch, createFetchHandler(app.issuer)]) {
      const response = await fetch(login())
      assert.equal(response.status, 200)
      assert.match(await response.text(), /<form method="post" action="\/admin\/login"/)
    }
  })

  it("is not served by adapters/http's face alone: /admin is the API's 404 there, until the console is passed", async () => {
    const bare = await createHttpFetchHandler(app.issuer)(login())
    assert.equal(bare.status, 404)
    assert.equal(bare.headers.get('content-type'), 'application/problem+json')
    const given = await createHttpFetchHandler(app.issuer, { console: createAdminSurface })(login())
    assert.equal(given.status, 200)
  })
})

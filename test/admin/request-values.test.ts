/**
 * The console's readings of a request (adapters/admin/request-values.ts), which every page module shares:
 * a path's `:id` by its shape, and the notice `?done=` names.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { IRequest } from 'itty-router'
import { doneNoticeOf, idParamOf, numericIdOf } from '../../adapters/admin/request-values.ts'

const withId = (id: string) => ({ params: { id } }) as unknown as IRequest
const NOTICES = { saved: { ko: '저장했습니다.', en: 'Saved.' } }

describe('staff console: request values', () => {
  it('reads a numeric id of at most the given digits, no leading zero, and nothing else', () => {
    assert.equal(numericIdOf(withId('1'), 15), 1)
    assert.equal(numericIdOf(withId('123456789012345'), 15), 123456789012345)
    for (const id of ['', '0', '01', '1234567890123456', '1e3', '-1', ' 1', '1.0']) assert.equal(numericIdOf(withId(id), 15), null, id)
    assert.equal(numericIdOf(withId('1234567890123456'), 16), 1234567890123456)
  })

  it('reads an id of a given shape as it is, or null', () => {
    assert.equal(idParamOf(withId('cc_0123456789abcdef01234567'), /^cc_[0-9a-f]{24}$/), 'cc_0123456789abcdef01234567')
    assert.equal(idParamOf(withId('cc_0123'), /^cc_[0-9a-f]{24}$/), null)
    assert.equal(idParamOf({ params: {} } as unknown as IRequest, /^cc_[0-9a-f]{24}$/), null)
  })

  it("names a notice of the page's own, and no notice for any other name, an object's own names too", () => {
    const at = (query: string) => new Request(`http://localhost/admin/templates/1${query}`)
    assert.deepEqual(doneNoticeOf(at('?done=saved'), NOTICES), NOTICES.saved)
    for (const query of ['', '?done=', '?done=created', '?done=constructor', '?done=__proto__', '?done=toString']) {
      assert.equal(doneNoticeOf(at(query), NOTICES), null, query)
    }
  })
})

/**
 * The library operations take typed inputs (core/inputs.ts, derived from the valibot schemas), so that an
 * in-process caller gets a compile error. `tsc -p .` compiles this file: each `@ts-expect-error` below
 * fails the compile when the type it guards loosens, because the error it expects is gone. At run time
 * the same wrong inputs still get 422 `validation-failed`: JavaScript callers and request bodies are not
 * checked by the compiler.
 */
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it } from 'node:test'
import { createIssuer, defaultUrls, ProblemError, type Issuer, type IssueBody, type TemplateCreateBody } from 'clubcred'
import { createMemoryStorage } from 'clubcred/memory'

const MASTER_KEY = Uint8Array.from({ length: 32 }, (_, i) => i)

let issuer: Issuer
beforeEach(async () => {
  issuer = createIssuer({ storage: createMemoryStorage(), masterKey: MASTER_KEY, urls: defaultUrls(8787) })
  await issuer.clubs.create({ domain: 'chess', name: 'Chess Club' })
})
afterEach(async () => {
  await issuer.close()
})

const validationFailed = (path: string) => (error: unknown) => {
  assert.ok(error instanceof ProblemError, `expected a ProblemError, got ${String(error)}`)
  assert.equal(error.code, 'validation-failed')
  assert.ok(
    error.errors?.some((field) => field.path === path),
    `expected a field error at ${path}: ${JSON.stringify(error.errors)}`,
  )
  return true
}

describe('the typed inputs of the library operations', () => {
  it('a template without its required description is a compile error, and 422 validation-failed at run time', async () => {
    // @ts-expect-error `description` is required (TemplateCreateBody)
    const missing: TemplateCreateBody = { name: 'Opening theory' }
    await assert.rejects(issuer.achievements.create('chess', missing), validationFailed('description'))
  })

  it('a template name of the wrong type is a compile error, and 422 validation-failed at run time', async () => {
    // @ts-expect-error `name` is a string
    await assert.rejects(issuer.achievements.create('chess', { name: 42, description: 'Studied the main openings.' }), validationFailed('name'))
  })

  it('an issue request with a string template id or a recipient without e-mail is a compile error, and 422 at run time', async () => {
    const template = await issuer.achievements.create('chess', { name: 'Opening theory', description: 'Studied the main openings.' })
    // @ts-expect-error `achievementFormId` is a number
    const stringId: IssueBody = { achievementFormId: String(template.id), recipients: [{ name: 'Kim', email: 'kim@example.org' }] }
    await assert.rejects(issuer.issuances.issue('chess', stringId), validationFailed('achievementFormId'))
    // A recipient is checked one by one at run time: the batch answers with a failed item, not a throw.
    // @ts-expect-error a recipient's `email` is required
    const { result } = await issuer.issuances.issue('chess', { achievementFormId: template.id, recipients: [{ name: 'Kim' }] })
    assert.equal(result.summary.failed, 1)
  })

  it('a design of an unknown kind is a compile error, and 422 validation-failed at run time', async () => {
    // @ts-expect-error `kind` is 'badge' or 'certificate'
    await assert.rejects(issuer.designs.create('chess', { kind: 'poster', name: 'Gold' }), validationFailed('kind'))
  })

  it('a revocation reason of the wrong type is a compile error, and 422 validation-failed at run time', async () => {
    // @ts-expect-error `reason` is a string
    await assert.rejects(issuer.issuances.revoke('chess', 1, { reason: 7 }), validationFailed('reason'))
  })
})

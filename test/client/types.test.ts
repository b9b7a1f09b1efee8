/**
 * The client's read types are the types of the schemas the OpenAPI document's responses are made from:
 * each is mutually assignable with `v.InferOutput` of its component (adapters/http/openapi/components.ts).
 * Checked when `tsc` runs (npm test): a client type written by hand that drifts from its schema, in
 * either direction, is a compile error here. The runtime half (the document against real answers) is
 * test/http/openapi/responses.test.ts.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type * as v from 'valibot'
import type { RESPONSE_COMPONENTS } from '../../adapters/http/openapi/components.ts'
import type { pageSchema } from '../../core/lists/cursor.ts'
import type {
  Achievement,
  BatchItem,
  BatchResult,
  Club,
  ClubEvent,
  CoIssuerView,
  CredentialPointer,
  CredentialRead,
  Design,
  Issuance,
  IssuanceDetail,
  Page,
  Verdict,
} from '../../client/index.ts'

type Schema<Name extends keyof typeof RESPONSE_COMPONENTS> = v.InferOutput<(typeof RESPONSE_COMPONENTS)[Name]>

/** `true` only when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

type PageOf<Name extends keyof typeof RESPONSE_COMPONENTS> = v.InferOutput<ReturnType<typeof pageSchema<(typeof RESPONSE_COMPONENTS)[Name]>>>

const clientTypesAreTheDocuments: [
  Same<Club, Schema<'Club'>>,
  Same<Achievement, Schema<'Achievement'>>,
  Same<CoIssuerView, Schema<'CoIssuer'>>,
  Same<Issuance, Schema<'Issuance'>>,
  Same<IssuanceDetail, Schema<'IssuanceDetail'>>,
  Same<CredentialPointer, Schema<'CredentialPointer'>>,
  Same<BatchResult, Schema<'BatchResult'>>,
  Same<BatchItem, Schema<'BatchItem'>>,
  Same<CredentialRead, Schema<'CredentialRead'>>,
  Same<ClubEvent, Schema<'ClubEvent'>>,
  Same<Design, Schema<'Design'>>,
  Same<Verdict, Schema<'Verdict'>>,
  Same<Page<Achievement>, PageOf<'Achievement'>>,
  Same<Page<Issuance>, PageOf<'Issuance'>>,
  Same<Page<ClubEvent>, PageOf<'ClubEvent'>>,
  Same<Page<Design>, PageOf<'Design'>>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]

// The check above must be able to fail: a type that differs in one member is not the same.
const aDriftIsCaught: [Same<Club & { billing: string }, Schema<'Club'>>, Same<Omit<Club, 'canIssue'>, Schema<'Club'>>] = [false, false]

describe('the client read types', () => {
  it('are mutually assignable with the document schemas (checked by tsc; this records that it ran)', () => {
    assert.equal(clientTypesAreTheDocuments.length, 16)
    assert.deepEqual(aDriftIsCaught, [false, false])
  })
})

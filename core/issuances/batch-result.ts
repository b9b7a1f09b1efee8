import * as v from 'valibot'

/** One item of the batch result (docs/api.md §2.9, docs/decisions/0013-issuing.md), told apart by `status`. */
export const batchItemSchema = v.variant('status', [
  v.object({ ref: v.string(), status: v.literal('issued'), resourceId: v.number(), error: v.null() }),
  v.object({
    ref: v.string(),
    status: v.literal('skipped'),
    /** `already-issued` names the issuance the recipient holds. */
    error: v.object({ code: v.picklist(['duplicate-in-request', 'already-issued']), message: v.string(), resourceId: v.optional(v.number()) }),
  }),
  v.object({ ref: v.string(), status: v.literal('failed'), error: v.object({ code: v.string(), message: v.string(), path: v.string() }) }),
])
export type BatchItem = v.InferOutput<typeof batchItemSchema>

/** The answer of an issue call (docs/api.md §2.9): one item per recipient, in request order, and the counts. */
export const batchResultSchema = v.object({
  results: v.array(batchItemSchema),
  summary: v.object({ total: v.number(), ok: v.number(), skipped: v.number(), failed: v.number() }),
})
export type BatchResult = v.InferOutput<typeof batchResultSchema>

import type { TemplateView } from '../achievements/present.ts'

/** Delivery of an issuance (docs/api.md §4.3 `mode`, docs/decisions/0013-issuing.md): `email` notifies the recipient, `none` is silent. */
export const ISSUE_MODES = ['email', 'none'] as const
export type IssueMode = (typeof ISSUE_MODES)[number]

export interface Recipient {
  /** The caller's own id of the person, if it sent one. */
  externalUserId: string | null
  name: string
  /** As sent, trimmed; compared by `sameRecipientEmail` (core/issuances/recipient-email.ts), ASCII letters folded. */
  email: string
}

export interface Evidence {
  url: string | null
  name: string | null
  description: string | null
  /** Only public evidence is engraved into the credential. */
  isPublic: boolean
}

/** An issuance: one recipient given one template (docs/api.md §2.6). */
export interface Issuance {
  /**
   * The public id (docs/api.md §2.6, the verdict's path): random below 2^53 for new issuances, so that counting
   * ids lists nobody (`issuance-id.ts`); issuances stored before migration 0006 keep their sequential ids.
   */
  id: number
  /** Issue order, never shown: lists, cursors and the signing queue sort by it, and it numbers certificates. */
  sequence: number
  club: string
  achievementId: number
  /** The template as issued: engraved into the credential and read back as the detail's `form`. */
  snapshotId: number
  recipient: Recipient
  evidences: Evidence[]
  mode: IssueMode
  /** When the credential stops being valid (ms), or `null` for never. */
  expiresAt: number | null
  createdAt: number
  revokedAt: number | null
  revocationReason: string | null
}

/** An issuance as core hands it to storage: the id chosen, the sequence still to be given. */
export type NewIssuance = Omit<Issuance, 'sequence'>

/** The template as issued, stored once per batch and shared by its issuances. */
export interface TemplateSnapshot {
  id: number
  club: string
  achievementId: number
  view: TemplateView
  createdAt: number
}

/** How a wallet took a credential (docs/api.md §2.6 `claims`): the OID4VCI credential endpoint, or the Learner Credential Wallet exchange. */
export const CLAIM_CHANNELS = ['oid4vci', 'lcw'] as const
export type ClaimChannel = (typeof CLAIM_CHANNELS)[number]

/** The credential formats a wallet can take (OID4VCI 1.0 Appendix A): the compact VC-JWT or the JSON-LD form. */
export const CLAIM_FORMATS = ['jwt_vc_json', 'ldp_vc'] as const
export type ClaimFormat = (typeof CLAIM_FORMATS)[number]

/** One time a wallet took an issuance's credential: when, through which channel, in which format; never who. */
export interface IssuanceClaim {
  issuanceId: number
  club: string
  via: ClaimChannel
  format: ClaimFormat
  /** ms */
  at: number
}

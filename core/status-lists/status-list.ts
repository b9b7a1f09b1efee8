/** A Bitstring Status List of a club: `size` slots, handed out in a permuted order (see core/status-lists). */
export interface StatusList {
  id: number
  club: string
  purpose: 'revocation'
  size: number
  /** Secret of the slot permutation, base64url. */
  seed: string
  /** Slots handed out so far. */
  allocated: number
  createdAt: number
}

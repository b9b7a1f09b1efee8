/*
 * How long each stateless wallet token lives (docs/decisions/0035-wallets-oid4vci.md). Short, since
 * a wallet uses them within seconds of the scan; the pre-authorized code's ten minutes leave room for a
 * recipient who scans, then installs a wallet first.
 */
export const PRE_AUTHORIZED_CODE_TTL_SECONDS = 600
export const WALLET_ACCESS_TOKEN_TTL_SECONDS = 300
export const C_NONCE_TTL_SECONDS = 300
/** A Learner Credential Wallet exchange (its challenge): as long as a pre-authorized code, for the same reason. */
export const LCW_EXCHANGE_TTL_SECONDS = PRE_AUTHORIZED_CODE_TTL_SECONDS

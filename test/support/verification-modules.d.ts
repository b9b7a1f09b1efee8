/**
 * Types for the untyped @digitalbazaar/vc-bitstring-status-list (the W3C Bitstring Status List
 * reference decoder the verification tests use): only what they call.
 */
declare module '@digitalbazaar/vc-bitstring-status-list' {
  export class BitstringStatusList {
    constructor(options?: { length?: number; buffer?: Uint8Array })
    readonly length: number
    getStatus(index: number): boolean
    setStatus(index: number, status: boolean): void
    encode(): Promise<string>
  }
  export function decodeList(options: { encodedList: string }): Promise<BitstringStatusList>
}

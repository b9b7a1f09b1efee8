/** The part of upstream fontkit 2 (foliojs/fontkit, no types of its own) that clubcred/pdf uses. */
declare module 'fontkit' {
  /** Parses a font file; pdf-lib then reads it through its own `Font` type. */
  export function create(buffer: Uint8Array, postscriptName?: string): unknown
}

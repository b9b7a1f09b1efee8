import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/** The TrueType faces a certificate uses: Korean (Hangul) and Latin in one family. */
export interface CertificateFonts {
  regular: Uint8Array
  bold: Uint8Array
}

/**
 * Pretendard (SIL Open Font License 1.1, the `pretendard` npm package): Hangul, Latin and digits in one
 * family. The TrueType files are used (`alternative/*.ttf`): pdf-lib embeds TrueType and CFF but not
 * WOFF2, and the TrueType subsets are several times smaller than the CFF ones for the same text.
 */
export async function loadPretendard(): Promise<CertificateFonts> {
  const require = createRequire(import.meta.url)
  const path = (weight: string) => require.resolve(`pretendard/dist/public/static/alternative/Pretendard-${weight}.ttf`)
  const [regular, bold] = await Promise.all([readFile(path('Regular')), readFile(path('Bold'))])
  return { regular: new Uint8Array(regular), bold: new Uint8Array(bold) }
}

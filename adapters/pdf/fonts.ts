import { readFile } from 'node:fs/promises'

/** The TrueType faces a certificate uses: Korean (Hangul) and Latin in one family. */
export interface CertificateFonts {
  regular: Uint8Array
  bold: Uint8Array
}

/**
 * Pretendard 1.3.9 (SIL Open Font License 1.1, `fonts/OFL.txt` beside them): Hangul, Latin and digits in one
 * family. Only the two faces a certificate uses are vendored, unmodified, from the `pretendard` npm
 * package's `dist/public/static/alternative/`: the package itself is 98 MB installed. TrueType, because
 * pdf-lib embeds TrueType and CFF but not WOFF2, and the TrueType subsets are several times smaller than
 * the CFF ones for the same text. The build copies `fonts/` into dist beside this module.
 */
export async function loadPretendard(): Promise<CertificateFonts> {
  const face = (weight: string) => readFile(new URL(`./fonts/Pretendard-${weight}.ttf`, import.meta.url))
  const [regular, bold] = await Promise.all([face('Regular'), face('Bold')])
  return { regular: new Uint8Array(regular), bold: new Uint8Array(bold) }
}

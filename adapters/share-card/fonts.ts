/**
 * The faces a share card is drawn in: the PDF certificate's Pretendard (adapters/pdf/fonts/, SIL OFL 1.1),
 * Regular and Bold, so that Hangul looks the same on the card as on the certificate. Read from beside the
 * PDF adapter, where the build copies them too: one copy of 5 MB of fonts, not two.
 */
export const PRETENDARD_FACES: readonly URL[] = ['Regular', 'Bold'].map((weight) => new URL(`../pdf/fonts/Pretendard-${weight}.ttf`, import.meta.url))

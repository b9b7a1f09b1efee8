import type { Words } from './pages.ts'

/**
 * The API's codes of designs (docs/api.md §4.14: core/designs/image.ts, check-png.ts, sanitize-svg.ts) and
 * of co-issuers (docs/api.md §2.3) in words; the code itself is shown beside them.
 */
export const DESIGN_CODE_WORDS: Record<string, Words> = {
  'image-empty': { ko: '빈 파일입니다.', en: 'The file is empty.' },
  'image-too-large': { ko: '이미지는 256 KiB 이하여야 합니다.', en: 'An image has at most 256 KiB.' },
  'image-not-base64': { ko: '파일을 읽을 수 없습니다.', en: 'The file could not be read.' },
  'unsupported-image-type': { ko: 'PNG 또는 SVG 파일만 쓸 수 있습니다.', en: 'PNG or SVG files only.' },
  'image-not-png': { ko: 'PNG 파일이 아닙니다.', en: 'Not a PNG file.' },
  'image-png-undecodable': { ko: '손상된 PNG 파일입니다.', en: 'The PNG file is damaged.' },
  'image-png-size-mismatch': { ko: 'PNG의 크기 정보와 내용이 다릅니다.', en: 'The PNG holds other data than its header says.' },
  'image-dimensions': { ko: 'PNG는 한 변이 1,024픽셀 이하여야 합니다.', en: 'A PNG has at most 1,024 pixels a side.' },
  'image-decoded-too-large': { ko: 'PNG의 픽셀 데이터가 너무 큽니다.', en: 'The PNG decodes to too much data.' },
  'image-not-svg': { ko: '올바른 SVG 파일이 아닙니다.', en: 'Not a well-formed SVG file.' },
  'image-svg-active-content': {
    ko: 'SVG에 스크립트, 스타일 시트, 애니메이션 같은 동작 요소가 있습니다.',
    en: 'The SVG holds active content (script, style sheet, animation...).',
  },
  'image-svg-unsupported': { ko: 'SVG에 지원하지 않는 요소가 있습니다.', en: 'The SVG holds something clubcred does not support.' },
  'invalid-color': { ko: '#rrggbb 형식의 색이어야 합니다.', en: 'A colour as #rrggbb.' },
  'invalid-orientation': { ko: '가로 또는 세로여야 합니다.', en: 'Landscape or portrait.' },
  'must-be-boolean': { ko: '올바른 값이 아닙니다.', en: 'Not a valid value.' },
  'layout-not-for-badge': { ko: '배지 디자인에는 인증서 레이아웃이 없습니다.', en: 'A badge design has no certificate layout.' },
  'image-not-for-certificate': { ko: '인증서 디자인에는 배지 이미지가 없습니다.', en: 'A certificate design has no badge image.' },
  'kind-immutable': { ko: '디자인의 종류는 바꿀 수 없습니다.', en: "A design's kind cannot change." },
  'unknown-design-kind': { ko: '배지 또는 인증서 디자인이어야 합니다.', en: 'A badge or a certificate design.' },
  'co-issuer-not-found': { ko: '이 템플릿의 공동 발급자가 아닙니다.', en: 'Not a co-issuer of this template.' },
  'too-many-co-issuers': { ko: '공동 발급자는 클럽 외에 20곳까지입니다.', en: 'At most 20 co-issuers besides the club.' },
}

import type { ShareView } from '../../../core/verification/share-view.ts'

export type VerdictTone = 'valid' | 'revoked' | 'expired' | 'invalid'

/** The banner of the page: the live verdict in Korean and English. */
export interface VerdictBanner {
  tone: VerdictTone
  icon: string
  ko: string
  en: string
  detailKo: string
  detailEn: string
}

/**
 * The verdict to show (docs/api.md §2.7, §2.11). A failed signature comes first: then nothing on the page can
 * be trusted, whatever the status says. Otherwise the status, in which revoked already wins over expired.
 */
export function verdictBanner(view: ShareView, formatDate: (iso: string) => string): VerdictBanner {
  if (!view.verdict.isValid) {
    return {
      tone: 'invalid',
      icon: '!',
      ko: '서명 검증 실패',
      en: 'Signature invalid',
      detailKo: '이 자격증명의 서명을 확인할 수 없습니다. 아래 내용을 신뢰하지 마세요.',
      detailEn: 'The signature of this credential does not verify. Do not trust what follows.',
    }
  }
  switch (view.verdict.status) {
    case 'revoked':
      return {
        tone: 'revoked',
        icon: '✕',
        ko: '취소됨',
        en: 'Revoked',
        detailKo: `${view.club.name}이(가) 이 자격증명을 취소했습니다. 더 이상 유효하지 않습니다.`,
        detailEn: `${view.club.name} has revoked this credential. It is no longer valid.`,
      }
    case 'expired': {
      const until = view.validUntil ? formatDate(view.validUntil) : ''
      return {
        tone: 'expired',
        icon: '!',
        ko: '만료됨',
        en: 'Expired',
        detailKo: until ? `이 자격증명은 ${until}에 만료되었습니다.` : '이 자격증명은 만료되었습니다.',
        detailEn: until ? `This credential expired on ${until}.` : 'This credential has expired.',
      }
    }
    case 'valid':
      return {
        tone: 'valid',
        icon: '✓',
        ko: '유효한 자격증명',
        en: 'Valid credential',
        detailKo: `${view.club.name}의 서명이 확인되었고 취소되지 않았습니다.`,
        detailEn: `Signed by ${view.club.name}, signature verified, not revoked.`,
      }
  }
}

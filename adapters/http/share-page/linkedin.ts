import type { ShareView } from '../../../core/verification/share-view.ts'

const ADD_TO_PROFILE = 'https://www.linkedin.com/profile/add'

/**
 * LinkedIn's add-to-profile link for a certification: name, issuing organisation, issue (and expiry)
 * month, the share page as the credential URL and the credential id. Every value percent-encoded.
 */
export function linkedInAddUrl(view: ShareView): string {
  const params: [string, string][] = [
    ['startTask', 'CERTIFICATION_NAME'],
    ['name', view.achievement.name],
    ['organizationName', view.club.name],
    ...yearMonth('issue', view.issuedAt),
    ...(view.validUntil ? yearMonth('expiration', view.validUntil) : []),
    ['certUrl', view.urls.share],
    ['certId', view.credentialId],
  ]
  return `${ADD_TO_PROFILE}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`
}

function yearMonth(prefix: string, iso: string): [string, string][] {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return []
  return [
    [`${prefix}Year`, String(date.getUTCFullYear())],
    [`${prefix}Month`, String(date.getUTCMonth() + 1)],
  ]
}

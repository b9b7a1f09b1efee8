/**
 * The link-preview crawlers and other robots whose fetch of a share page is not a view
 * (docs/decisions/0047-claims-and-expiry.md § Share views): the User-Agent tokens that the chat apps,
 * social networks and search engines send when they fetch a link to show its card or index it. A request
 * without a User-Agent is not counted either: browsers always send one, scripts often do not.
 */
export const LINK_PREVIEW_AGENTS = [
  'facebookexternalhit',
  'facebot',
  'twitterbot',
  'linkedinbot',
  'slackbot',
  'discordbot',
  'telegrambot',
  'whatsapp',
  'kakaotalk-scrap',
  'daum',
  'yeti',
  'skypeuripreview',
  'teams',
  'applebot',
  'googlebot',
  'google-inspectiontool',
  'bingbot',
  'bingpreview',
  'pinterest',
  'redditbot',
  'embedly',
  'iframely',
  'mastodon',
  'bluesky',
  'cardyb',
  'line-poker',
  'vkshare',
  'snapchat',
  'curl',
  'wget',
  'python-requests',
  'go-http-client',
  'node-fetch',
  'undici',
  'bot',
  'crawler',
  'spider',
  'preview',
] as const

/** Whether a request with this User-Agent is a person's view of the page, to be counted. */
export function isPersonViewing(userAgent: string | null): boolean {
  if (!userAgent || userAgent.trim() === '') return false
  const agent = userAgent.toLowerCase()
  return !LINK_PREVIEW_AGENTS.some((token) => agent.includes(token))
}

/**
 * The share page's one script, served as `/share.js` on the share host (`script-src 'self'`: never
 * inline, nothing from another origin). It only enhances: the share button is `hidden` in the page and
 * shown here. With the Web Share API (`navigator.share`, on phones the sheet that offers KakaoTalk, Band
 * and the rest) it hands over the page's title and address; without it, it copies the address to the
 * clipboard. What happened is said in the button's live region, in Korean with English beside. A user
 * who closes the share sheet (`AbortError`) gets no message.
 */
export const SHARE_JS = `'use strict'
;(function () {
  var box = document.querySelector('[data-share]')
  if (!box) return
  var button = box.querySelector('button')
  var status = box.querySelector('.share__status')
  var url = box.getAttribute('data-url')
  var title = box.getAttribute('data-title')
  var canShare = typeof navigator.share === 'function'
  var canCopy = !!(navigator.clipboard && navigator.clipboard.writeText)
  if (!button || !url || (!canShare && !canCopy)) return

  function say(ko, en) {
    var english = document.createElement('span')
    english.lang = 'en'
    english.textContent = en
    status.replaceChildren(ko + ' ', english)
  }
  function copy() {
    return navigator.clipboard.writeText(url).then(
      function () { say('링크를 복사했습니다.', 'Link copied.') },
      function () { say('링크를 복사하지 못했습니다. 주소창의 주소를 복사하세요.', 'Could not copy the link: copy the address bar instead.') }
    )
  }
  // The page names both actions; the one this browser can do is shown.
  box.querySelector(canShare ? '[data-share-label]' : '[data-copy-label]').hidden = false
  button.addEventListener('click', function () {
    status.replaceChildren()
    if (!canShare) return copy()
    navigator.share({ title: title, url: url }).catch(function (error) {
      if (error && error.name === 'AbortError') return
      if (canCopy) return copy()
      say('공유하지 못했습니다.', 'Could not share.')
    })
  })
  box.hidden = false
})()
`

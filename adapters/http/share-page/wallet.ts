import { html, type Markup } from './html.ts'
import type { ShareView } from '../../../core/verification/share-view.ts'

/**
 * "Add to wallet" (OID4VCI credential offer): on a phone the link opens the wallet app, on a
 * desktop the wallet's camera reads the QR code; both carry the same `openid-credential-offer://` link.
 * The page stays script-free: the link is a plain anchor (CSP does not govern navigation) and the QR code
 * a `data:` image.
 */
export function walletBlock(view: ShareView, qr: string): Markup {
  return html`<section class="wallet">
<h2>디지털 지갑에 추가<span lang="en">Add to your wallet</span></h2>
<p class="wallet__hint">휴대폰에서는 버튼을 누르고, 컴퓨터에서는 지갑 앱으로 QR 코드를 스캔하세요. <span lang="en">On a phone, tap the button; on a computer, scan the QR code with your wallet app.</span></p>
<div class="wallet__offer">
<a class="button button--wallet" href="${view.urls.walletOffer}">지갑에 추가 <span lang="en">Add to wallet</span></a>
<figure class="wallet__qr">
<img src="${qr}" width="136" height="136" alt="지갑에 추가하는 QR 코드 / QR code to add the credential to a wallet">
<figcaption>OpenID4VCI 지갑용 QR 코드 <span lang="en">QR code for OpenID4VCI wallets</span></figcaption>
</figure>
</div>
${view.urls.lcw ? html`<p class="wallet__lcw"><a class="button button--lcw" href="${view.urls.lcw}">Learner Credential Wallet에 추가 <span lang="en">Add to Learner Credential Wallet</span></a></p>` : null}
</section>`
}

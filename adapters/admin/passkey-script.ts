/**
 * The console's one script, served as /admin/passkey.js (`script-src 'self'`: never inline). It only
 * enhances: the passkey controls are `hidden` in the page and shown here when the browser has
 * `PublicKeyCredential`; every form keeps working without it. It turns the server's JSON options into
 * what `navigator.credentials.create`/`get` take (base64url to bytes) and their answers back into JSON
 * (bytes to base64url), and posts them to the console's passkey endpoints
 * (docs/admin-console.md § Passkeys).
 */
export const PASSKEY_JS = `'use strict'
;(function () {
  var box = document.querySelector('[data-passkey]')
  if (!box || !window.PublicKeyCredential || !navigator.credentials) return
  var base = box.getAttribute('data-base')
  var mode = box.getAttribute('data-passkey')
  var button = box.querySelector('button')
  var status = box.querySelector('.passkey-status')
  var nameInput = box.querySelector('input[name="passkey-name"]')

  function say(words) {
    var english = document.createElement('span')
    english.lang = 'en'
    english.textContent = words.en
    status.replaceChildren(words.ko + ' ', english)
  }
  function toBytes(text) {
    var b64 = text.replace(/-/g, '+').replace(/_/g, '/')
    var binary = atob(b64 + '==='.slice((b64.length + 3) % 4))
    var bytes = new Uint8Array(binary.length)
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
    return bytes
  }
  function toText(buffer) {
    var bytes = new Uint8Array(buffer)
    var binary = ''
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i])
    return btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
  }
  function post(path, body) {
    var headers = { 'content-type': 'application/json' }
    var csrf = box.getAttribute('data-csrf')
    if (csrf) headers['x-csrf-token'] = csrf
    return fetch(base + path, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin' }).then(function (response) {
      return response.json().then(
        function (json) { return { ok: response.ok, json: json } },
        function () { return { ok: false, json: {} } }
      )
    })
  }
  function refused(json) {
    say(json && json.messages ? json.messages : { ko: '요청을 처리할 수 없습니다.', en: 'Request refused.' })
  }
  /** A list of credential descriptors with their ids as the bytes the browser's API takes. */
  function withByteIds(credentials) {
    return (credentials || []).map(function (credential) {
      return Object.assign({}, credential, { id: toBytes(credential.id) })
    })
  }
  function creationOptions(options) {
    options.challenge = toBytes(options.challenge)
    options.user.id = toBytes(options.user.id)
    options.excludeCredentials = withByteIds(options.excludeCredentials)
    return options
  }
  function requestOptions(options) {
    options.challenge = toBytes(options.challenge)
    options.allowCredentials = withByteIds(options.allowCredentials)
    return options
  }
  /** A credential as JSON (WebAuthn's PublicKeyCredential JSON), with the members of its kind of response. */
  function credentialJson(credential, response) {
    return {
      id: credential.id,
      rawId: toText(credential.rawId),
      type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
      response: Object.assign({ clientDataJSON: toText(credential.response.clientDataJSON) }, response)
    }
  }
  function registrationJson(credential) {
    var response = credential.response
    return credentialJson(credential, {
      attestationObject: toText(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : []
    })
  }
  function authenticationJson(credential) {
    var response = credential.response
    return credentialJson(credential, {
      authenticatorData: toText(response.authenticatorData),
      signature: toText(response.signature),
      userHandle: response.userHandle ? toText(response.userHandle) : undefined
    })
  }
  var cancelled = { ko: '패스키를 사용하지 않았습니다.', en: 'No passkey was used.' }

  function register(prefix, extra, done) {
    var name = nameInput ? nameInput.value : ''
    var body = Object.assign({ name: name }, extra)
    return post(prefix + '/options', body).then(function (answer) {
      if (!answer.ok) return refused(answer.json)
      return navigator.credentials.create({ publicKey: creationOptions(answer.json) }).then(
        function (credential) {
          return post(prefix, Object.assign({ credential: registrationJson(credential) }, body)).then(function (result) {
            if (!result.ok) return refused(result.json)
            done(result.json)
          })
        },
        function () { say(cancelled) }
      )
    })
  }

  function login() {
    var email = document.getElementById('email')
    var body = { email: email ? email.value : '' }
    return post('/passkeys/login/options', body).then(function (answer) {
      if (!answer.ok) return refused(answer.json)
      return navigator.credentials.get({ publicKey: requestOptions(answer.json) }).then(
        function (credential) {
          return post('/passkeys/login', Object.assign({ credential: authenticationJson(credential) }, body)).then(function (result) {
            if (!result.ok) return refused(result.json)
            window.location.assign(result.json.location)
          })
        },
        function () { say(cancelled) }
      )
    })
  }

  button.addEventListener('click', function () {
    button.disabled = true
    var run
    if (mode === 'login') run = login()
    else if (mode === 'setup') {
      var token = document.querySelector('input[name="token"]')
      run = register('/passkeys/setup', { token: token ? token.value : '' }, function () {
        say({ ko: '패스키를 등록했습니다. 아래에서 비밀번호도 설정하세요.', en: 'Passkey registered. Set your password below as well.' })
      })
    } else {
      run = register('/account/passkeys', {}, function () {
        window.location.assign(base + '/account?done=added')
      })
    }
    run.catch(function () { say({ ko: '연결에 실패했습니다.', en: 'The request failed.' }) }).then(function () { button.disabled = false })
  })
  box.hidden = false
})()
`

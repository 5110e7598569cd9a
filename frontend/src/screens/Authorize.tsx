// The OAuth consent screen (#/authorize?client_id=…&redirect_uri=…&…): /o/authorize/ sends the browser here.
// The server checks the request (client, exact redirect URI, PKCE S256, scopes) and names the app and its
// scopes; Allow / Deny posts the decision (session + CSRF) and the answer says where to send the browser:
// the app's registered redirect URI with the code (or error=access_denied) and the app's state.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type Schemas } from "../api";
import type { Key } from "../i18n";
import { errorText, t, useStore } from "../store";

type Scope = Schemas["ScopeWords"];
/** GET /oauth/authorize: the app, its scopes in words, and the checked request to post back with the decision. */
type Details = Schemas["AuthorizeDetails"];

/** The query of the hash route (#/authorize?a=1&b=2), unchanged. */
export function hashQuery(hash: string): string {
  const i = hash.indexOf("?");
  return i < 0 ? "" : hash.slice(i + 1);
}

/** A scope in plain words in the user's language (the server's English text for a scope the PWA does not know). */
function scopeWords(s: Scope): string {
  const key = `oauth.scope.${s.scope}` as Key;
  const text = t(key);
  return text === key ? s.description : text;
}

function hostOf(uri: string): string {
  try { return new URL(uri).host || uri; } catch { return uri; }
}

export function Authorize() {
  const st = useStore();
  const [details, setDetails] = useState<Details | null>(null);
  const [err, setErr] = useState<{ text: string; back?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const query = hashQuery(location.hash);

  useEffect(() => {
    setDetails(null); setErr(null);
    api<Details>("GET", "/oauth/authorize?" + query)
      .then(setDetails)
      .catch((e) => {
        setErr({ text: errorText(e), back: e instanceof ApiError ? e.redirectTo : undefined });
      });
  }, [query]);

  async function decide(allow: boolean) {
    if (!details) return;
    setBusy(true);
    try {
      const res = await api<Schemas["Redirect"]>("POST", "/oauth/authorize", { ...details.request, allow });
      location.assign(res.redirect_to);
    } catch (e) {
      setBusy(false);
      setErr({ text: errorText(e) });
    }
  }

  if (err) {
    return (
      <main class="page narrow" id="main">
        <h1>{t("oauth.title_error")}</h1>
        <p class="form-err" role="alert" id="authorize-error">{err.text}</p>
        {err.back && <p><a class="btn" href={err.back}>{t("oauth.back_to_app")}</a></p>}
      </main>
    );
  }
  if (!details) return <main class="page narrow" id="main"><p aria-busy="true">{t("common.loading")}</p></main>;
  const name = details.application.name;
  return (
    <main class="page narrow" id="main">
      <h1 id="authorize-title">{t("oauth.title", { app: name })}</h1>
      <div class="card-panel" aria-labelledby="authorize-title">
        <p>{t("oauth.wants", { app: name, user: st.me?.username || "" })}</p>
        <ul class="scopes" id="authorize-scopes">
          {details.scopes.map((s) => <li><strong>{scopeWords(s)}</strong> <code class="muted small">{s.scope}</code></li>)}
        </ul>
        <p class="muted small">{t("oauth.no_password")}</p>
        <p class="muted small">{t("oauth.redirect", { host: hostOf(details.request.redirect_uri) })}</p>
        <p class="muted small">{t("oauth.revoke_hint")}</p>
        <div class="row">
          <button class="btn primary" type="button" id="authorize-allow" disabled={busy} onClick={() => decide(true)}>{t("oauth.allow")}</button>
          <button class="btn ghost" type="button" id="authorize-deny" disabled={busy} onClick={() => decide(false)}>{t("oauth.deny")}</button>
        </div>
      </div>
    </main>
  );
}

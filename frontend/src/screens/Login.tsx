import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api, ApiError, ensureCsrf, type Schemas } from "../api";
import { LANG_NAMES, LANGS, type Lang } from "../i18n";
import { acceptMe, setLang, state, t, toast, type Me } from "../store";
import { Field, FormError } from "../ui";

/** This device's last username (set at each login or sign-up): the Log in tab starts with it. */
const LAST_USERNAME = "claim.last_username";
/** Set when a reset link set a new password; the next Log in tab says so, once (the page reloads in between). */
const RESET_DONE = "claim.reset_done";

function stored(storage: Storage, key: string): string {
  try { return storage.getItem(key) || ""; } catch { return ""; }
}

/** "Forgot password?": the e-mail address of the account; the server mails a one-time link. */
function Forgot({ onBack }: { onBack: () => void }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  async function submit(e: Event) {
    e.preventDefault();
    setErr(null); setFields({});
    try {
      await ensureCsrf();
      await api("POST", "/accounts/password/reset", { email: email.trim() });
      setSent(true);
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(x instanceof ApiError ? (x.status === 0 ? t("common.offline") : x.message) : t("common.error"));
    }
  }
  return (
    <form onSubmit={submit} class="card-panel" aria-label={t("auth.forgot")} id="forgot-form">
      <p>{t("auth.forgot_help")}</p>
      <Field id="reset-email" label={t("auth.email")} type="email" value={email} onInput={setEmail} errors={fields.email} autocomplete="email" required />
      <FormError text={err} />
      {sent ? <p role="status" id="reset-sent">{t("auth.reset_sent")}</p>
        : <button class="btn primary wide" type="submit">{t("auth.send_link")}</button>}
      <button class="btn ghost wide" type="button" onClick={onBack}>{t("auth.back_login")}</button>
    </form>
  );
}

/** The e-mailed link (``/reset-password?uid=…&token=…``): choose the new password. */
export function ResetPassword({ onDone }: { onDone: () => void }) {
  const q = new URLSearchParams(location.search);
  const [password, setPassword] = useState("");
  const [err, setErr] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  async function submit(e: Event) {
    e.preventDefault();
    setErr(null); setFields({});
    try {
      await ensureCsrf();
      await api("POST", "/accounts/password/reset/confirm", { uid: q.get("uid") || "", token: q.get("token") || "", new_password: password });
      try { sessionStorage.setItem(RESET_DONE, "1"); } catch { /* storage off: the toast still says it */ }
      toast(t("auth.reset_done"));
      onDone();
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(x instanceof ApiError ? (x.status === 0 ? t("common.offline") : x.message) : t("common.error"));
    }
  }
  return (
    <main class="page narrow" id="main">
      <h1>{t("auth.set_password")}</h1>
      <form onSubmit={submit} class="card-panel" aria-label={t("auth.set_password")}>
        <Field id="new-password" label={t("auth.new_password")} type="password" value={password} onInput={setPassword}
          errors={fields.new_password} autocomplete="new-password" required />
        <FormError text={err} />
        <button class="btn primary wide" type="submit">{t("auth.set_password")}</button>
      </form>
    </main>
  );
}

/**
 * Log in / Sign up. A returning device (a username logged in here before) and the way back from a password reset
 * open the Log in tab with that username; after a reset a line says the password changed and the account's other
 * sessions and tokens were ended (the server's reset does both). ``intro`` replaces the landing text above the
 * form: what the visitor came for (an invitation, a private game's notice).
 */
export function Login({ onDone, intro }: { onDone: () => void; intro?: ComponentChildren }) {
  const [afterReset] = useState(() => {
    const done = stored(sessionStorage, RESET_DONE) === "1";
    if (done) try { sessionStorage.removeItem(RESET_DONE); } catch { /* ignore */ }
    return done;
  });
  const [mode, setMode] = useState<"login" | "signup" | "forgot">(() => (afterReset || stored(localStorage, LAST_USERNAME) ? "login" : "signup"));
  const [f, setF] = useState({ username: stored(localStorage, LAST_USERNAME), password: "", email: "", display_name: "" });
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upd = (k: keyof typeof f) => (v: string) => setF({ ...f, [k]: v });

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true); setErr(null); setFields({});
    try {
      await ensureCsrf();
      const body: Schemas["LoginRequest"] | Schemas["RegisterRequest"] = mode === "login"
        ? { username: f.username, password: f.password }
        : { username: f.username, password: f.password, language: state.lang,
            ...(f.email ? { email: f.email } : {}), ...(f.display_name ? { display_name: f.display_name } : {}),
            time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" };
      // Both answer the account (Profile), logged in.
      const me = await api<Me>("POST", mode === "login" ? "/accounts/login" : "/accounts/register", body);
      await ensureCsrf(true); // login rotates the CSRF token
      try { localStorage.setItem(LAST_USERNAME, me.username); } catch { /* storage off: nothing to prefill next time */ }
      acceptMe(me);
      onDone();
    } catch (x) {
      if (x instanceof ApiError) {
        setFields(x.fields);
        const fieldKeys = Object.keys(x.fields).filter((k) => k !== "non_field_errors");
        setErr(fieldKeys.length ? null : x.status === 0 ? t("common.offline") : x.message);
        // the server writes the messages in the player's language (api.ts sends it): a wrong login names no field
        if (x.fields.non_field_errors) setErr(x.fields.non_field_errors.join(" "));
      } else setErr(t("common.error"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="page narrow" id="main">
      {intro ?? (
        <div class="brand-hero">
          <h1>{t("app.name")}</h1>
          <p>{t("app.tagline")}</p>
          <p class="small" id="landing">{t("app.landing")}</p>
        </div>
      )}
      <div class="tabs" role="tablist">
        <button role="tab" type="button" aria-selected={mode === "signup"} class={mode === "signup" ? "on" : ""} onClick={() => setMode("signup")}>{t("auth.signup")}</button>
        <button role="tab" type="button" aria-selected={mode === "login"} class={mode === "login" ? "on" : ""} onClick={() => setMode("login")}>{t("auth.login")}</button>
      </div>
      {afterReset && mode === "login" && <p class="notice done" role="status" id="reset-notice">{t("auth.reset_sessions_ended")}</p>}
      {mode === "forgot" ? <Forgot onBack={() => setMode("login")} /> :
      <form onSubmit={submit} class="card-panel" aria-label={mode === "login" ? t("auth.login") : t("auth.signup")}>
        <Field id="username" label={t("auth.username")} value={f.username} onInput={upd("username")} errors={fields.username} autocomplete="username" required />
        <Field id="password" label={t("auth.password")} type="password" value={f.password} onInput={upd("password")} errors={fields.password}
          autocomplete={mode === "login" ? "current-password" : "new-password"} required />
        {mode === "signup" && (
          <>
            <Field id="email" label={t("auth.email")} type="email" value={f.email} onInput={upd("email")} errors={fields.email} autocomplete="email" />
            <Field id="display_name" label={t("auth.display_name")} value={f.display_name} onInput={upd("display_name")} errors={fields.display_name} autocomplete="nickname" />
          </>
        )}
        <FormError text={err} />
        <button class="btn primary wide" type="submit" disabled={busy}>{mode === "login" ? t("auth.login") : t("auth.signup")}</button>
        {mode === "login" && <button class="btn ghost wide" type="button" id="forgot" onClick={() => setMode("forgot")}>{t("auth.forgot")}</button>}
      </form>}
      <div class="field lang-pick">
        <label for="lang-login">{t("settings.language")}</label>
        <select id="lang-login" value={state.lang} onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}>
          {LANGS.map((l) => <option value={l}>{LANG_NAMES[l]}</option>)}
        </select>
      </div>
      <p class="center"><a class="tap-link" href="#/rules">{t("nav.rules")}</a></p>
    </main>
  );
}

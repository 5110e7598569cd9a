import { useState } from "preact/hooks";
import { api, ApiError, ensureCsrf } from "../api";
import { LANG_NAMES, LANGS, type Lang } from "../i18n";
import { acceptMe, setLang, state, t, type Me } from "../store";
import { Field, FormError } from "../ui";

export function Login({ onDone }: { onDone: () => void }) {
  const [mode, setMode] = useState<"login" | "signup">("signup");
  const [f, setF] = useState({ username: "", password: "", email: "", display_name: "" });
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upd = (k: keyof typeof f) => (v: string) => setF({ ...f, [k]: v });

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true); setErr(null); setFields({});
    try {
      await ensureCsrf();
      const body = mode === "login"
        ? { username: f.username, password: f.password }
        : { username: f.username, password: f.password, language: state.lang,
            ...(f.email ? { email: f.email } : {}), ...(f.display_name ? { display_name: f.display_name } : {}),
            time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC" };
      const res = await api<Me | { user: Me }>("POST", mode === "login" ? "/accounts/login" : "/accounts/register", body);
      await ensureCsrf(true); // login rotates the CSRF token
      let me = (res && "user" in res ? res.user : res) as Me | null;
      if (!me || !me.username) me = await api<Me>("GET", "/accounts/me");
      acceptMe(me);
      onDone();
    } catch (x) {
      if (x instanceof ApiError) {
        setFields(x.fields);
        const fieldKeys = Object.keys(x.fields).filter((k) => k !== "non_field_errors");
        setErr(fieldKeys.length ? null : x.status === 0 ? t("common.offline") : x.message);
        if (x.fields.non_field_errors) setErr(x.fields.non_field_errors.join(" "));
      } else setErr(t("common.error"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="page narrow" id="main">
      <div class="brand-hero">
        <h1>{t("app.name")}</h1>
        <p>{t("app.tagline")}</p>
      </div>
      <div class="tabs" role="tablist">
        <button role="tab" type="button" aria-selected={mode === "signup"} class={mode === "signup" ? "on" : ""} onClick={() => setMode("signup")}>{t("auth.signup")}</button>
        <button role="tab" type="button" aria-selected={mode === "login"} class={mode === "login" ? "on" : ""} onClick={() => setMode("login")}>{t("auth.login")}</button>
      </div>
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
      </form>
      <div class="field lang-pick">
        <label for="lang-login">{t("settings.language")}</label>
        <select id="lang-login" value={state.lang} onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}>
          {LANGS.map((l) => <option value={l}>{LANG_NAMES[l]}</option>)}
        </select>
      </div>
      <p class="center"><a href="#/rules">{t("nav.rules")}</a></p>
    </main>
  );
}

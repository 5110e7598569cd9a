import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type Schemas } from "../api";
import { LANG_NAMES, LANGS, type Lang } from "../i18n";
import { acceptMe, errorText, logout, setOneTap, setLang, state, t, toast, useStore, type Me } from "../store";
import { Field, FormError, relTime } from "../ui";
import { MyRatings } from "./Profile";
import { formatInZone, shortenChoices, type VacationPeriod } from "../corr";
import { BlockedList } from "./Friends";

type Token = Schemas["Token"];
type AuthorizedApp = Schemas["AuthorizedApp"];
type Scope = Schemas["ScopesEnum"];

const SCOPES: Scope[] = ["games:read", "games:play", "bot:play", "account:read"];

type VacationData = Schemas["VacationPayload"];
type VacationChange = Schemas["VacationChange"];

/** The local date ``ahead`` days from today, as a date input writes it (the server takes yesterday to a year on). */
function localDay(ahead: number): string {
  const d = new Date();
  d.setDate(d.getDate() + ahead);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Vacation: the balance, automatic use, the booked periods (Cancel before the start, Shorten: the whole days cut
 *  off come back) and booking a new one. Every change shows at once on the clocks of the player's games. */
function Vacation() {
  const st = useStore();
  const [v, setV] = useState<VacationData | null>(null);
  const [start, setStart] = useState("");
  const [days, setDays] = useState("3");
  const [editing, setEditing] = useState<number | null>(null);
  const [newDays, setNewDays] = useState("1");
  useEffect(() => { api<VacationData>("GET", "/vacation").then(setV).catch(() => setV(null)); }, []);

  async function setAuto(on: boolean) {
    try { setV(await api<VacationData>("PATCH", "/vacation", { auto_use: on })); toast(t("common.saved")); } catch (e) { toast(errorText(e), "error"); }
  }
  async function book(e: Event) {
    e.preventDefault();
    if (!start || !v) return;
    const have = Math.floor(v.balance_days);
    if (Number(days) > have) { toast(t("vac.not_enough", { have, asked: Number(days) }), "error"); return; }
    try {
      setV(await api<VacationData>("POST", "/vacation/periods", { start: new Date(start + "T00:00:00").toISOString(), days: Number(days) }));
      toast(t("common.saved"));
    } catch (x) {
      const said = x instanceof ApiError ? (x.fields.start ?? x.fields.days) : undefined;
      toast(said ? said.join(" ") : errorText(x), "error");
    }
  }
  async function change(p: VacationPeriod, how: "cancel" | number) {
    try {
      const r = how === "cancel" ? await api<VacationChange>("DELETE", `/vacation/periods/${p.id}`)
        : await api<VacationChange>("PATCH", `/vacation/periods/${p.id}`, { days: how });
      setV(r); setEditing(null);
      toast(t("vac.given_back", { n: r.given_back_days }));
    } catch (x) {
      const said = x instanceof ApiError ? x.fields.days : undefined;
      toast(said ? said.join(" ") : errorText(x), "error");
    }
  }
  if (!v) return null;
  const zone = st.me?.time_zone;
  const when = (iso: string) => formatInZone(iso, zone, state.lang);
  return (
    <section aria-labelledby="h-vac" id="vacation">
      <h2 id="h-vac">{t("vac.title")}</h2>
      <p>{t("vac.balance", { n: v.balance_days })} <span class="muted small">{t("vac.help")}</span></p>
      <label class="radio"><input type="checkbox" id="vac-auto" checked={v.auto_use} onChange={(e) => setAuto((e.target as HTMLInputElement).checked)} />{t("vac.auto")}</label>
      {v.periods.length > 0 && (
        <ul class="hist" id="vac-periods" aria-label={t("vac.booked")}>
          {v.periods.map((p) => {
            const choices = shortenChoices(p);
            return (
              <li data-period={p.id}>
                <p>{when(p.start)} – {when(p.end)} ({t("new.days", { n: p.days })}){p.started && <strong class="badge"> {t("vac.under_way")}</strong>}</p>
                <div class="row">
                  {!p.started && <button type="button" class="btn" onClick={() => change(p, "cancel")} data-act="cancel">{t("vac.cancel")}</button>}
                  {p.started && choices.length > 0 && choices[0] === p.days_begun &&
                    <button type="button" class="btn" onClick={() => change(p, p.days_begun)} data-act="end-today">{t("vac.end_today")}</button>}
                  {choices.length > 0 && editing !== p.id &&
                    <button type="button" class="btn" onClick={() => { setEditing(p.id); setNewDays(String(choices[choices.length - 1])); }} data-act="shorten">{t("vac.shorten")}</button>}
                </div>
                {editing === p.id && (
                  <form class="row" onSubmit={(e) => { e.preventDefault(); void change(p, Number(newDays)); }}>
                    <div class="field"><label for={`vac-new-${p.id}`}>{t("vac.new_length")}</label>
                      <select id={`vac-new-${p.id}`} value={newDays} onChange={(e) => setNewDays((e.target as HTMLSelectElement).value)}>
                        {choices.map((d) => <option value={String(d)}>{t("vac.ends", { n: d, when: when(new Date(Date.parse(p.start) + d * 86400000).toISOString()) })}</option>)}
                      </select></div>
                    <button class="btn" type="submit" data-act="save">{t("vac.save")}</button>
                    <button class="btn ghost" type="button" onClick={() => setEditing(null)}>{t("vac.keep")}</button>
                  </form>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <form class="row" onSubmit={book}>
        <div class="field"><label for="vac-start">{t("vac.start")}</label><input id="vac-start" type="date" min={localDay(0)} max={localDay(365)} value={start} onInput={(e) => setStart((e.target as HTMLInputElement).value)} /></div>
        <div class="field"><label for="vac-days">{t("vac.days")}</label><input id="vac-days" type="number" min="1" max="30" value={days} onInput={(e) => setDays((e.target as HTMLInputElement).value)} /></div>
        <button class="btn" type="submit">{t("vac.book")}</button>
      </form>
    </section>
  );
}

/** Privacy (issue 35): "hide my presence" (PATCH /accounts/me hide_presence): friends no longer see me online. */
export function Presence() {
  const st = useStore();
  const [busy, setBusy] = useState(false);
  const on = !!st.me?.hide_presence;
  async function change(hide: boolean) {
    setBusy(true);
    try {
      acceptMe(await api<Me>("PATCH", "/accounts/me", { hide_presence: hide } satisfies Schemas["PatchedProfileRequest"]));
      toast(t("common.saved"));
    } catch (x) { toast(errorText(x), "error"); }
    setBusy(false);
  }
  return (
    <section aria-labelledby="h-privacy" id="privacy">
      <h2 id="h-privacy">{t("social.privacy")}</h2>
      <label class="radio"><input type="checkbox" id="hide-presence" checked={on} disabled={busy}
        onChange={(e) => void change((e.target as HTMLInputElement).checked)} />{t("social.hide_presence")}</label>
      <p class="muted small">{t("social.hide_presence_help")}</p>
      <BlockedList kind="block" />
      <BlockedList kind="mute" />
    </section>
  );
}

/** OAuth apps the user has allowed (GET /accounts/oauth/apps), each with Revoke (its tokens end at once). */
function AuthorizedApps() {
  const [apps, setApps] = useState<AuthorizedApp[] | null>(null);
  async function load() {
    try { setApps(await api<AuthorizedApp[]>("GET", "/accounts/oauth/apps")); } catch { setApps([]); }
  }
  useEffect(() => { void load(); }, []);
  async function revoke(id: number) {
    try { await api("DELETE", `/accounts/oauth/apps/${id}`); void load(); } catch (x) { toast(errorText(x), "error"); }
  }
  return (
    <section aria-labelledby="h-apps" id="authorized-apps">
      <h2 id="h-apps">{t("settings.apps")}</h2>
      <p class="muted small">{t("settings.apps_help")}</p>
      {apps && apps.length === 0 && <p>{t("settings.apps_none")}</p>}
      <ul class="tokens">
        {(apps || []).map((a) => (
          <li><span><strong>{a.name}</strong> <span class="muted small">{a.scopes.join(", ")} · {t("settings.app_since", { when: relTime(a.authorized_at) })}</span></span>
            <button class="btn ghost" type="button" onClick={() => revoke(a.id)}>{t("settings.app_revoke")}</button></li>
        ))}
      </ul>
    </section>
  );
}

type DataPage = Schemas["PersonalDataPage"];
type DataExport = Schemas["PersonalData"];

/** GET /accounts/me/data, then every section's further pages (``next``), saved as one JSON file. */
async function downloadMyData(username: string): Promise<void> {
  const data = await api<DataExport>("GET", "/accounts/me/data");
  for (const section of Object.values(data.sections)) {
    let next = section.next;
    while (next) {
      const page: DataPage = await api<DataPage>("GET", next.replace(/^\/api\/v1/, ""));
      section.items.push(...page.items);
      next = page.next;
    }
    section.next = null;
  }
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `claim-data-${username}.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** "Your data": download everything held about you; delete the account after a warning and the password. */
function YourData({ username, onDeleted }: { username: string; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState("");
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    try { await downloadMyData(username); toast(t("settings.data_downloaded")); }
    catch (x) { toast(errorText(x), "error"); }
    finally { setBusy(false); }
  }
  async function remove(e: Event) {
    e.preventDefault();
    setErr(null); setFields({});
    try {
      await api("POST", "/accounts/me/delete", { password });
      toast(t("settings.delete_done"));
      onDeleted();
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(errorText(x));
    }
  }
  return (
    <section aria-labelledby="h-data" id="your-data">
      <h2 id="h-data">{t("settings.data")}</h2>
      <p class="muted small">{t("settings.data_help")}</p>
      <p><button class="btn" type="button" id="download-data" disabled={busy} onClick={download}>{t("settings.data_download")}</button></p>
      {!asking && <p><button class="btn ghost" type="button" id="delete-account" onClick={() => setAsking(true)}>{t("settings.delete")}</button></p>}
      {asking && (
        <form onSubmit={remove} id="delete-form">
          <div class="fresh" role="alert"><p><strong>{t("settings.delete_warning_title")}</strong></p><p>{t("settings.delete_warning")}</p></div>
          <Field id="delete-password" type="password" label={t("settings.delete_password")} value={password} onInput={setPassword}
            errors={fields.password} autocomplete="current-password" required />
          <FormError text={fields.password ? null : err} />
          <p>
            <button class="btn primary" type="submit" id="confirm-delete" disabled={!password}>{t("settings.delete_confirm")}</button>{" "}
            <button class="btn ghost" type="button" onClick={() => { setAsking(false); setPassword(""); setErr(null); setFields({}); }}>{t("common.cancel")}</button>
          </p>
        </form>
      )}
    </section>
  );
}

function zones(): string[] {
  try {
    const f = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
    if (f) return ["UTC", ...f("timeZone")];
  } catch { /* old browser */ }
  return ["UTC", "Europe/Berlin", "Europe/Prague", "Europe/London", "America/New_York"];
}

export function Settings({ onLogout }: { onLogout: () => void }) {
  const st = useStore();
  const me = st.me!;
  const [f, setF] = useState({ display_name: me.display_name || "", language: (me.language || st.lang) as Lang, time_zone: me.time_zone || "UTC" });
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [tname, setTname] = useState("");
  const [tscopes, setTscopes] = useState<Scope[]>(["games:read", "games:play"]);
  const [fresh, setFresh] = useState<string | null>(null);

  async function loadTokens() {
    try { setTokens(await api<Token[]>("GET", "/accounts/tokens")); } catch { setTokens([]); }
  }
  useEffect(() => { void loadTokens(); }, []);

  async function save(e: Event) {
    e.preventDefault();
    setErr(null); setFields({});
    try {
      const body: Schemas["PatchedProfileRequest"] = f;
      acceptMe(await api<Me>("PATCH", "/accounts/me", body));
      setLang(f.language);
      toast(t("common.saved"));
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(errorText(x));
    }
  }

  async function createToken(e: Event) {
    e.preventDefault();
    try {
      const body: Schemas["TokenCreateRequest"] = { name: tname || "token", scopes: tscopes };
      setFresh((await api<Schemas["TokenCreated"]>("POST", "/accounts/tokens", body)).token);
      setTname("");
      void loadTokens();
    } catch (x) { toast(errorText(x), "error"); }
  }

  async function revoke(id: number) {
    try { await api("DELETE", `/accounts/tokens/${id}`); void loadTokens(); } catch (x) { toast(errorText(x), "error"); }
  }

  return (
    <main class="page" id="main">
      <h1>{t("settings.title")}</h1>
      <form onSubmit={save} aria-labelledby="h-prof">
        <h2 id="h-prof">{t("settings.profile")}</h2>
        <p class="muted">{me.username}</p>
        <Field id="display_name" label={t("settings.display_name")} value={f.display_name} onInput={(v) => setF({ ...f, display_name: v })} errors={fields.display_name} />
        <div class="field">
          <label for="language">{t("settings.language")}</label>
          <select id="language" value={f.language} onChange={(e) => { const l = (e.target as HTMLSelectElement).value as Lang; setF({ ...f, language: l }); setLang(l); }}>
            {LANGS.map((l) => <option value={l}>{LANG_NAMES[l]}</option>)}
          </select>
          {fields.language && <p class="field-err">{fields.language.join(" ")}</p>}
        </div>
        <div class="field">
          <label for="time_zone">{t("settings.time_zone")}</label>
          <select id="time_zone" value={f.time_zone} onChange={(e) => setF({ ...f, time_zone: (e.target as HTMLSelectElement).value })}>
            {zones().map((z) => <option value={z}>{z}</option>)}
          </select>
          {fields.time_zone && <p class="field-err">{fields.time_zone.join(" ")}</p>}
        </div>
        <label class="radio"><input type="checkbox" id="one-tap" checked={st.oneTap} onChange={(e) => setOneTap((e.target as HTMLInputElement).checked)} />{t("settings.one_tap")}</label>
        <FormError text={err} />
        <button class="btn primary" type="submit" id="save-profile">{t("common.save")}</button>
      </form>

      <Presence />
      <MyRatings />
      <section aria-labelledby="h-notif">
        <h2 id="h-notif">{t("notes.title")}</h2>
        <p><a class="btn" href="#/notes" id="notif-settings">{t("notes.prefs_link")}</a></p>
      </section>
      <Vacation />

      <section aria-labelledby="h-tok">
        <h2 id="h-tok">{t("settings.tokens")}</h2>
        <p class="muted small">{t("settings.tokens_help")}</p>
        {fresh && <div class="fresh" role="alert"><p>{t("settings.token_shown_once")}</p><code>{fresh}</code></div>}
        {tokens && tokens.length === 0 && <p>{t("settings.token_none")}</p>}
        <ul class="tokens">
          {(tokens || []).map((tk) => (
            <li><span><strong>{tk.name}</strong> <span class="muted small">{tk.prefix ? `clm_${tk.prefix}_…` : ""} {tk.scopes.join(", ")}
              {tk.created_at && ` · ${t("settings.token_created", { when: relTime(tk.created_at) })}`}
              {tk.last_used_at && ` · ${t("settings.token_last_used", { when: relTime(tk.last_used_at) })}`}</span></span>
              <button class="btn ghost" type="button" onClick={() => revoke(tk.id)}>{t("settings.token_revoke")}</button></li>
          ))}
        </ul>
        <form onSubmit={createToken}>
          <Field id="token-name" label={t("settings.token_name")} value={tname} onInput={setTname} />
          <fieldset><legend>{t("settings.token_scopes")}</legend>
            {SCOPES.map((s) => (
              <label class="radio"><input type="checkbox" checked={tscopes.includes(s)} onChange={() => setTscopes(tscopes.includes(s) ? tscopes.filter((x) => x !== s) : [...tscopes, s])} /><code>{s}</code></label>
            ))}
          </fieldset>
          <button class="btn" type="submit">{t("settings.token_new")}</button>
        </form>
      </section>
      <AuthorizedApps />
      <YourData username={me.username} onDeleted={async () => { await logout(); onLogout(); }} />
      <p><button class="btn ghost" type="button" onClick={async () => { await logout(); onLogout(); }} id="logout">{t("auth.logout")}</button></p>
    </main>
  );
}

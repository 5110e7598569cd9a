// The pieces the tournament screens (Tournaments.tsx) and the league screens (Leagues.tsx) share: the section's
// "Tournaments | Leagues" switch, the status tabs, a keyset-paged list with its header, a detail page that re-reads on
// its socket events and on coming back into view, the create form's state (the client's checks shown after the first
// submit, the server's 4xx on their field, "More options" opened where a problem hides), a select with its error,
// the entry-condition fields and the entry conditions in words.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, type Schemas } from "../api";
import { choiceView, describeTimeControl, formatInZone } from "../corr";
import type { Key } from "../i18n";
import type { Paged } from "../paged";
import { errorText, state, t, toast } from "../store";
import { TOURNAMENT_TIMES, type CreateForm, type EntryForm, type Problem } from "../tournament";
import { Field, FormError } from "../ui";

/** "Claim · 3 days per move": a game kind and its clock, in words. */
export function kindClock(kind: string, tc: Schemas["TimeControl"]): string {
  return [t(("game." + kind) as Key), describeTimeControl(tc, t, state.lang)].join(" · ");
}

/** A time in the viewer's time zone. */
export function when(isoTime: string | null): string {
  return formatInZone(isoTime, state.me?.time_zone, state.lang);
}

// ------------------------------------------------------------------------------------------- lists

/** The section's switch between the tournaments and the leagues (two links: each its own list). */
export function SectionNav({ on }: { on: "tournaments" | "leagues" }) {
  return (
    <nav class="seg" aria-label={t("league.section")} id="section-nav">
      {(["tournaments", "leagues"] as const).map((k) => (
        <a class={`seg-b ${on === k ? "on" : ""}`} href={`#/${k}`} id={`section-${k}`} aria-current={on === k ? "page" : undefined}>
          {t(k === "tournaments" ? "tour.title" : "league.title")}</a>
      ))}
    </nav>
  );
}

/** A list's status tabs, as links (the first status is the list's own path). */
export function StatusTabs<S extends string>({ label, statuses, current, base, text }: {
  label: string; statuses: readonly S[]; current: S; base: string; text: (s: S) => string;
}) {
  return (
    <nav class="tabs" aria-label={label}>
      {statuses.map((k, i) => (
        <a href={i === 0 ? `#/${base}` : `#/${base}/${k}`} class={current === k ? "on" : ""} data-tab={k}
          aria-current={current === k ? "page" : undefined}>{text(k)}</a>
      ))}
    </nav>
  );
}

/** A list screen: its title and "Refresh", the help, the create link, the section switch, the status tabs, the rows,
 *  the empty text and "More". Ids start with `prefix` (`tour-list`, `league-more`...). */
export function ListScreen<T extends { id: number }>(props: {
  prefix: string; tab: string; list: Paged<T>; title: string; help: string; createText: string;
  createHref: string; section: "tournaments" | "leagues"; tabs: ComponentChildren; empty: string; moreText: string;
  row: (r: T) => ComponentChildren;
}) {
  const { prefix, list } = props;
  return (
    <main class="page" id="main" data-tab={props.tab} data-section={props.section}>
      <div class="row-between">
        <h1>{props.title}</h1>
        <button type="button" class="btn ghost" id={`${prefix}-refresh`} onClick={() => void list.load(null)} disabled={list.busy} aria-busy={list.busy}>{t("common.refresh")}</button>
      </div>
      <SectionNav on={props.section} />
      <p class="muted small">{props.help}</p>
      <a class="btn primary wide" href={props.createHref} id={`${prefix}-create`}>{props.createText}</a>
      {props.tabs}
      {list.err && <p class="form-err" role="alert">{list.err}</p>}
      {list.loaded && !list.rows.length && !list.err && <p class="empty" id={`${prefix}-empty`}>{props.empty}</p>}
      <ul class="games" id={`${prefix}-list`}>{list.rows.map(props.row)}</ul>
      {list.next != null && <button type="button" class="btn wide" id={`${prefix}-more`} disabled={list.busy} aria-busy={list.busy}
        onClick={() => void list.load(list.next)}>{list.busy ? t("common.loading") : props.moreText}</button>}
    </main>
  );
}

/** A row of a list: a link to the page, the name (the creator's text) and "Featured" said in words, then `children`
 *  (lines of class gr-sub); `data` its data-* attributes. */
export function ListRow({ href, name, featured, data, children }: {
  href: string; name: string; featured: boolean; data: Record<string, number>; children: ComponentChildren;
}) {
  const attrs = Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v]));
  return (
    <li>
      <a class={`game-row ${featured ? "featured" : ""}`} href={href} {...attrs}>
        <span class="gr-main"><strong dir="auto" class="t-name">{name}</strong>{featured && <span class="badge t-featured"> · ★ {t("tour.featured")}</span>}</span>
        {children}
      </a>
    </li>
  );
}

// ------------------------------------------------------------------------------------------- a detail page

/** A page's data, read by `read` and again on the socket events `ours` accepts, when a game of mine starts or ends
 *  (now and twice a little later: the result reaches the tournament in the background), and when the page comes back
 *  into view. An older answer arriving late never replaces a newer one; `put` sets what an action answered. */
export function useLive<T>(read: () => Promise<T>, ours: (event: unknown) => boolean, key: unknown) {
  const [data, setData] = useState<T | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const asked = useRef(0);
  const oursRef = useRef(ours);
  oursRef.current = ours;

  async function refresh() {
    const mine = ++asked.current;
    try {
      const got = await read();
      if (mine === asked.current) { setData(got); setErr(null); }
    } catch (e) {
      if (mine === asked.current) setErr(errorText(e));
    }
  }
  function put(got: T) { asked.current++; setData(got); }

  useEffect(() => {
    setData(null); setErr(null);
    void refresh();
    let later: ReturnType<typeof setTimeout>[] = [];
    const onEvent = (e: Event) => { if (oursRef.current((e as CustomEvent).detail)) void refresh(); };
    const onLifecycle = () => {
      void refresh();
      later.forEach(clearTimeout);
      later = [1500, 5000].map((ms) => setTimeout(() => void refresh(), ms));
    };
    const onVisible = () => { if (document.visibilityState === "visible") void refresh(); };
    const onFocus = () => void refresh();
    window.addEventListener("claim:tournament", onEvent);
    window.addEventListener("claim:lifecycle", onLifecycle);
    window.addEventListener("focus", onFocus);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      later.forEach(clearTimeout);
      window.removeEventListener("claim:tournament", onEvent);
      window.removeEventListener("claim:lifecycle", onLifecycle);
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [key]);
  return { data, err, refresh, put };
}

/** An action's state on a page (join, leave...): busy, and the server's refusal as it comes (a 409 also re-reads the
 *  page: what changed is shown). */
export function useAction(refresh: () => void) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  async function run(work: () => Promise<void>) {
    setBusy(true); setErr(null);
    try { await work(); } catch (e) {
      setErr(errorText(e));
      if (e instanceof ApiError && e.status === 409) refresh();
    }
    setBusy(false);
  }
  return { busy, err, run };
}

/** The entry conditions in words: " · Ratings 1500 to 1800 · Reliability at least 80 % · Bots may join" (each only
 *  when it applies). */
export function Conditions({ x }: { x: { rating_min: number | null; rating_max: number | null; min_reliability: number; bots_allowed: boolean } }) {
  return (
    <>
      {(x.rating_min != null || x.rating_max != null) && <> · {t("tour.rating_range", { min: x.rating_min ?? 0, max: x.rating_max ?? "∞" })}</>}
      {x.min_reliability > 0 && <> · {t("tour.reliability_at_least", { min: x.min_reliability })}</>}
      {x.bots_allowed && <> · {t("tour.bots")}</>}
    </>
  );
}

// ------------------------------------------------------------------------------------------- create forms

/** A client-side problem in words (its numbers filled in). */
export function problemText(p: Problem): string {
  return (t as unknown as (key: string, params?: Record<string, number>) => string)(p.key, p.params);
}

/**
 * A create form's state. `fieldOf` maps the request's field names to the form's (a server message on a field clears
 * when that is edited); `check` gives the client's problems by request field (shown after the first submit); inputs'
 * ids are `${prefix}-${field}`. `submit(send)` checks, sends, and on a 400 puts the server's messages on their
 * fields; "More options" opens when a problem is in a field other than the name.
 */
export function useCreateForm<F extends object, R extends string>(initial: () => F, fieldOf: Partial<Record<R, keyof F>>,
  check: (f: F) => Partial<Record<R, Problem>>, prefix: string) {
  const [f, setF] = useState<F>(initial);
  const [more, setMore] = useState(false);
  const [shown, setShown] = useState(false);
  const [server, setServer] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const problems = check(f);
  /** A field's messages: the client's problem (once submitted), the server's words (the engine's refusal of the
   *  options, e.g. claim-mix factions, is said under the game). */
  const msg = (field: R): string[] | undefined => {
    const p = problems[field];
    const mine = shown && p ? [problemText(p)] : [];
    const theirs = [...(server[field] ?? []), ...(field === "kind" ? server.options ?? [] : [])];
    return mine.length || theirs.length ? [...mine, ...theirs] : undefined;
  };
  const put = (patch: Partial<F>) => {
    setF((before) => ({ ...before, ...patch }));
    setServer((before) => {
      const out = { ...before };
      for (const k of Object.keys(fieldOf) as R[]) if ((fieldOf[k] as string) in patch) delete out[k];
      return out;
    });
  };
  const focusLater = (field: string) => setTimeout(() => document.getElementById(`${prefix}-${field}`)?.focus(), 0);

  async function submit(e: Event, send: (f: F) => Promise<{ id: number }>, done: (id: number) => void, created: string) {
    e.preventDefault();
    setShown(true); setErr(null); setServer({});
    const bad = Object.keys(check(f));
    if (bad.length) {
      if (bad.some((k) => k !== "name")) setMore(true); // a problem in a hidden field: show it
      setErr(t("tour.fix"));
      focusLater(bad[0]);
      return;
    }
    setBusy(true);
    try {
      const made = await send(f);
      toast(created);
      done(made.id);
    } catch (x) {
      if (x instanceof ApiError) {
        setServer(x.fields);
        const named = Object.keys(x.fields);
        if (named.some((k) => k !== "name")) setMore(true);
        if (named.length) focusLater(named[0]);
        // a refusal of no field (409 too many, 429) is said as the server says it
        setErr(named.length ? t("tour.fix") : errorText(x));
      } else setErr(errorText(x));
    }
    setBusy(false);
  }
  /** The server's messages on fields the form does not show (said above the submit button). */
  const others = Object.keys(server).filter((k) => !(k in fieldOf));
  return { f, setF, put, more, setMore, server, setServer, msg, submit, err, busy, others };
}

/** A create form's presets: the one chosen, and choosing one (its fields filled, the server's messages cleared). */
export function usePreset<P extends string, F extends object>(form: { setF: (up: (f: F) => F) => void; setServer: (s: Record<string, string[]>) => void },
  presets: Record<P, Partial<F>>, first: P) {
  const [preset, setPreset] = useState<P>(first);
  function choose(p: P) {
    setPreset(p);
    form.setF((before) => ({ ...before, ...presets[p] }));
    form.setServer({});
  }
  return { preset, choose };
}

/** The preset radios of a create form. */
export function Presets<P extends string>({ ids, current, text, onChoose }: { ids: P[]; current: P; text: (p: P) => string; onChoose: (p: P) => void }) {
  return (
    <fieldset>
      <legend>{t("tour.preset")}</legend>
      {ids.map((p) => (
        <label class="radio"><input type="radio" name="preset" value={p} checked={current === p} onChange={() => onChoose(p)} />{text(p)}</label>
      ))}
    </fieldset>
  );
}

/** A labelled select with its error under it. */
export function SelectField<V extends string>({ id, label, value, options, errors, onChange, children }: {
  id: string; label: string; value: V; options: { value: V; text: string }[]; errors?: string[]; onChange: (v: V) => void; children?: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} aria-invalid={errors ? "true" : undefined} aria-describedby={errors ? `${id}-err` : undefined}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value as V)}>
        {options.map((o) => <option value={o.value}>{o.text}</option>)}
      </select>
      {errors && <p class="field-err" id={`${id}-err`}>{errors.join(" ")}</p>}
      {children}
    </div>
  );
}

/** The entry conditions' fields of a create form (ids `${prefix}-rating_min`...). */
export function EntryFields<F extends EntryForm & { botsAllowed: boolean }>({ prefix, f, put, msg }: {
  prefix: string; f: F; put: (patch: Partial<F>) => void; msg: (field: "rating_min" | "rating_max" | "min_reliability" | "bots_allowed") => string[] | undefined;
}) {
  const num = (field: "rating_min" | "rating_max" | "min_reliability", key: "ratingMin" | "ratingMax" | "minReliability", label: string) => (
    <Field id={`${prefix}-${field}`} label={label} type="number" inputMode="numeric" value={f[key]} onInput={(v) => put({ [key]: v } as Partial<F>)} errors={msg(field)} />
  );
  return (
    <>
      {num("rating_min", "ratingMin", t("tour.rating_min"))}
      {num("rating_max", "ratingMax", t("tour.rating_max"))}
      {num("min_reliability", "minReliability", t("tour.min_reliability"))}
      <label class="radio"><input type="checkbox" id={`${prefix}-bots_allowed`} checked={f.botsAllowed} onChange={(e) => put({ botsAllowed: (e.target as HTMLInputElement).checked } as Partial<F>)} />{t("tour.bots_allowed")}</label>
      {msg("bots_allowed") && <p class="field-err">{msg("bots_allowed")!.join(" ")}</p>}
    </>
  );
}

/** The game of a tournament's (or a league's) games; claim-mix plays the standard faction choice. */
export function KindField({ id, kinds, value, errors, onChange }: { id: string; kinds: CreateForm["kind"][]; value: CreateForm["kind"]; errors?: string[]; onChange: (k: CreateForm["kind"]) => void }) {
  return (
    <SelectField id={id} label={t("tour.kind")} value={value} errors={errors} options={kinds.map((k) => ({ value: k, text: t(("game." + k) as Key) }))} onChange={onChange}>
      {value === "claim-mix" && <p class="muted small">{t("tour.mix_note")}</p>}
    </SelectField>
  );
}

/** The time control of the games: the new-game screen's choices but "unlimited". */
export function TimeField({ id, value, errors, onChange }: { id: string; value: string; errors?: string[]; onChange: (v: string) => void }) {
  return <SelectField id={id} label={t("tour.time")} value={value} errors={errors} options={TOURNAMENT_TIMES.map((c) => ({ value: c.id, text: describeTimeControl(choiceView(c), t, state.lang) }))} onChange={onChange} />;
}

/** The form's message and the server's words on fields it does not show, then the submit button. */
export function FormEnd({ err, others, server, busy, id, text }: { err: string | null; others: string[]; server: Record<string, string[]>; busy: boolean; id: string; text: string }) {
  return (
    <>
      {others.map((k) => <p class="field-err" data-field={k}>{server[k].join(" ")}</p>)}
      <FormError text={err} />
      <button class="btn primary wide" type="submit" disabled={busy} aria-busy={busy} id={id}>{text}</button>
    </>
  );
}

// Tournaments (issue 36): #/tournaments[/running|/finished] the list (the API's status filter, featured first,
// keyset "More"), #/tournaments/new the create form (presets, "More options", the server's checks on the client and
// its 4xx messages on their field), and #/tournaments/ID one tournament: its terms, Join / Leave / Withdraw /
// Cancel (the server's refusals shown as they come), the standings (tie-breaks named, `out` said in words), the
// crosstable (scrolls sideways at 360 px), my games (links to the tables). Live: while the page is open the socket
// follows the tournament (`watch_tournament`) and any `tournament` event of it, a game of mine starting or ending,
// or the page coming back into view re-reads it.
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "../api";
import { api } from "../api";
import { choiceView, describeTimeControl, formatInZone } from "../corr";
import type { Key } from "../i18n";
import { unwatchTournament, watchTournament } from "../realtime";
import { navigate } from "../router";
import { appendPage } from "../social";
import { errorText, state, t, toast, useStore } from "../store";
import {
  actionsFor, blankForm, checkForm, createBody, createTournament, crossGrid, featuredFirst, FORMAT_KINDS, gamesPath,
  isTournamentEvent, LIST_STATUSES, listPath, myGames, myResult, points, PRESETS, roundOf, tournamentAction, tournamentHref,
  TOURNAMENT_TIMES, type CreateForm, type ListStatus, type PresetId, type Tournament, type TournamentCreate,
  type Problem, type TournamentDetail, type TournamentFormat, type TournamentGame, type TournamentGames,
} from "../tournament";
import { Field, FormError } from "../ui";
import { iso, UserName } from "./Watch";

const FORMATS: TournamentFormat[] = ["swiss", "round_robin", "tables"];

/** "Swiss · Claim · 3 days per move": the kind, the format and the clock of a tournament, in words. */
function terms(x: Tournament): string {
  return [t(`tour.format.${x.format}`), t(("game." + x.kind) as Key), describeTimeControl(x.time_control, t, state.lang)].join(" · ");
}

function when(isoTime: string | null): string {
  return formatInZone(isoTime, state.me?.time_zone, state.lang);
}

/** When it starts (or started, or finished), in the viewer's time zone. */
function startText(x: Tournament): string {
  if (x.finished_at && (x.status === "finished" || x.status === "cancelled")) return t("tour.finished_at", { when: when(x.finished_at) });
  if (x.started_at) return t("tour.started", { when: when(x.started_at) });
  return x.starts_at ? t("tour.starts_at", { when: when(x.starts_at) }) : t("tour.starts_full");
}

// ------------------------------------------------------------------------------------------- the list

export function TournamentList({ tab: initial }: { tab?: string | null }) {
  useStore();
  const status: ListStatus = LIST_STATUSES.includes(initial as ListStatus) ? (initial as ListStatus) : "open";
  const [rows, setRows] = useState<Tournament[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);

  async function load(cursor: number | null) {
    setBusy(true);
    try {
      if (cursor == null) {
        const [featured, page] = await Promise.all([
          api<{ results: Tournament[] }>("GET", listPath(status, null, true)), api<{ results: Tournament[]; next: number | null }>("GET", listPath(status, null)),
        ]);
        setRows(featuredFirst(featured.results, page.results));
        setNext(page.next);
      } else {
        const page = await api<{ results: Tournament[]; next: number | null }>("GET", listPath(status, cursor));
        setRows((before) => appendPage(before, page.results, (r) => r.id));
        setNext(page.next);
      }
      setErr(null);
    } catch (e) { setErr(errorText(e)); }
    setBusy(false);
    setLoaded(true);
  }
  useEffect(() => { setRows([]); setNext(null); setLoaded(false); void load(null); }, [status]);

  return (
    <main class="page" id="main" data-tab={status}>
      <div class="row-between">
        <h1>{t("tour.title")}</h1>
        <button type="button" class="btn ghost" id="tour-refresh" onClick={() => void load(null)} disabled={busy} aria-busy={busy}>{t("common.refresh")}</button>
      </div>
      <p class="muted small">{t("tour.help")}</p>
      <a class="btn primary wide" href="#/tournaments/new" id="tour-create">{t("tour.create")}</a>
      <nav class="tabs" aria-label={t("tour.tabs")}>
        {LIST_STATUSES.map((k) => (
          <a href={k === "open" ? "#/tournaments" : `#/tournaments/${k}`} class={status === k ? "on" : ""} data-tab={k}
            aria-current={status === k ? "page" : undefined}>{t(`tour.tab_${k}`)}</a>
        ))}
      </nav>
      {err && <p class="form-err" role="alert">{err}</p>}
      {loaded && !rows.length && !err && <p class="empty" id="tour-empty">{t(`tour.empty_${status}`)}</p>}
      <ul class="games" id="tour-list">
        {rows.map((r) => <TournamentRow r={r} key={r.id} />)}
      </ul>
      {next != null && <button type="button" class="btn wide" id="tour-more" disabled={busy} aria-busy={busy} onClick={() => void load(next)}>{busy ? t("common.loading") : t("tour.more")}</button>}
    </main>
  );
}

/** One tournament in the list: its name (the creator's text), featured, kind, format, clock, players, start. */
function TournamentRow({ r }: { r: Tournament }) {
  return (
    <li>
      <a class={`game-row ${r.featured ? "featured" : ""}`} href={tournamentHref(r.id)} data-tournament={r.id}>
        <span class="gr-main"><strong dir="auto" class="t-name">{r.name}</strong>{r.featured && <span class="badge t-featured"> · ★ {t("tour.featured")}</span>}</span>
        <span class="gr-sub small">{terms(r)}</span>
        <span class="gr-sub small muted">{t("tour.players", { n: r.player_count, max: r.max_players })}{r.rated && <> · {t("seek.rated")}</>} · {startText(r)}</span>
      </a>
    </li>
  );
}

// ------------------------------------------------------------------------------------------- one tournament

export function TournamentScreen({ id }: { id: number }) {
  const st = useStore();
  const [d, setD] = useState<TournamentDetail | null>(null);
  const [games, setGames] = useState<TournamentGame[]>([]);
  const [err, setErr] = useState<string | null>(null);
  const [actionErr, setActionErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const asked = useRef(0); // the newest read: an older answer arriving late never replaces a newer one

  async function refresh() {
    const mine = ++asked.current;
    try {
      const detail = await api<TournamentDetail>("GET", `/tournaments/${id}`);
      const list = detail.status === "open" || detail.status === "cancelled" ? { results: [] as TournamentGame[] }
        : await api<TournamentGames>("GET", gamesPath(detail));
      if (mine !== asked.current) return;
      setD(detail); setGames(list.results); setErr(null);
    } catch (e) {
      if (mine === asked.current) setErr(errorText(e));
    }
  }

  useEffect(() => {
    setD(null); setGames([]); setErr(null); setActionErr(null);
    void refresh();
    // A result reaches the tournament in the background: a game of mine that starts or ends is read now and twice more
    // a little later (the socket's `tournament` event, once the server sends it, makes the later reads unneeded).
    let later: ReturnType<typeof setTimeout>[] = [];
    const onEvent = (e: Event) => { if (isTournamentEvent((e as CustomEvent).detail, id)) void refresh(); };
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
    watchTournament(id);
    return () => {
      later.forEach(clearTimeout);
      window.removeEventListener("claim:tournament", onEvent);
      window.removeEventListener("claim:lifecycle", onLifecycle);
      window.removeEventListener("focus", onFocus);
      document.removeEventListener("visibilitychange", onVisible);
      unwatchTournament(id);
    };
  }, [id]);

  async function act(action: "join" | "leave" | "cancel", withdraw = false) {
    if (action === "cancel" && !confirm(t("tour.cancel_confirm"))) return;
    if (withdraw && !confirm(t("tour.withdraw_confirm"))) return;
    setBusy(true); setActionErr(null);
    try {
      const detail = await tournamentAction(id, action);
      asked.current++;
      setD(detail);
      toast(t(action === "join" ? "tour.joined" : action === "cancel" ? "tour.cancelled" : withdraw ? "tour.withdrawn" : "tour.left"));
      if (detail.status !== "open") void refresh();
    } catch (e) {
      setActionErr(errorText(e)); // the server's words: full, rating out of range, a block, entries closed...
      if (e instanceof ApiError && e.status === 409) void refresh();
    }
    setBusy(false);
  }

  if (!d) {
    return (
      <main class="page narrow" id="main" data-tournament={id}>
        {err ? <p class="form-err" role="alert" id="tour-error">{err}</p> : <p aria-busy="true">{t("common.loading")}</p>}
        <p><a class="btn ghost" href="#/tournaments" id="tour-back">{t("tour.back")}</a></p>
      </main>
    );
  }
  const me = st.me?.username ?? null;
  const can = actionsFor(d, me);
  const round = roundOf(d);
  const mineGames = myGames(games, me);
  const twoPlayer = d.format !== "tables";
  return (
    <main class="page" id="main" data-tournament={id} data-status={d.status} data-round={d.current_round}>
      <h1 dir="auto" id="tour-name">{d.name}</h1>
      <p class="t-terms" id="tour-terms">{terms(d)}{d.rated && <> · {t("seek.rated")}</>}</p>
      <p class="row small">
        <span class={`t-status s-${d.status}`} id="tour-status">{t(`tour.status.${d.status}`)}</span>
        {round && <span id="tour-round">{d.format === "round_robin" ? t("tour.rr_rounds", { of: round.of }) : t("tour.round", { n: round.n, of: round.of })}</span>}
        <span id="tour-count">{t("tour.players", { n: d.player_count, max: d.max_players })}</span>
      </p>
      <p class="small muted">{startText(d)} · {t("tour.by", { name: iso(d.created_by.name || d.created_by.username) })}
        {(d.rating_min != null || d.rating_max != null) && <> · {t("tour.rating_range", { min: d.rating_min ?? 0, max: d.rating_max ?? "∞" })}</>}
        {d.min_reliability > 0 && <> · {t("tour.reliability_at_least", { min: d.min_reliability })}</>}
        {d.bots_allowed && <> · {t("tour.bots")}</>}</p>
      {d.my_entry && <p class="notice done" id="tour-mine">{d.my_entry.withdrawn_at ? t("tour.you_out") : t("tour.you_in")}</p>}
      <div class="row" id="tour-actions">
        {can.join && <button type="button" class="btn primary" id="tour-join" disabled={busy} onClick={() => void act("join")}>{t("tour.join")}</button>}
        {can.leave && <button type="button" class="btn" id="tour-leave" disabled={busy} onClick={() => void act("leave")}>{t("tour.leave")}</button>}
        {can.withdraw && <button type="button" class="btn" id="tour-withdraw" disabled={busy} onClick={() => void act("leave", true)}>{t("tour.withdraw")}</button>}
        {can.cancel && <button type="button" class="btn ghost danger" id="tour-cancel" disabled={busy} onClick={() => void act("cancel")}>{t("tour.cancel")}</button>}
      </div>
      <p class="form-err" role="alert" id="tour-action-error">{actionErr}</p>
      {err && <p class="form-err" role="alert">{err}</p>}

      {mineGames.length > 0 && me && (
        <section aria-labelledby="h-tour-games">
          <h2 id="h-tour-games">{t("tour.my_games")}</h2>
          <ul class="games" id="tour-my-games">{mineGames.map((g) => <MyGameRow g={g} me={me} key={g.game_id} />)}</ul>
        </section>
      )}
      {d.my_entry && !d.my_entry.withdrawn_at && d.status === "running" && !mineGames.length && <p class="muted small" id="tour-no-games">{t("tour.my_games_none")}</p>}

      {d.standings.length > 0 ? <Standings d={d} me={me} /> : (
        <section aria-labelledby="h-tour-players">
          <h2 id="h-tour-players">{t("tour.entrants")}</h2>
          {d.players.length ? (
            <ol class="t-entrants" id="tour-players">{d.players.map((e) => <li data-player={e.player.username}><UserName user={e.player} />{e.withdrawn_at && <span class="badge"> · {t("tour.out")}</span>}</li>)}</ol>
          ) : <p class="empty">{t("tour.no_players")}</p>}
        </section>
      )}
      {twoPlayer && d.standings.length > 1 && <Crosstable d={d} />}
      {d.byes.length > 0 && (
        <section aria-labelledby="h-tour-byes">
          <h2 id="h-tour-byes">{t("tour.byes")}</h2>
          <ul class="small" id="tour-byes">{d.byes.map((b) => <li>{t("tour.bye", { n: b.round, name: iso(nameOf(d, b.player)) })}</li>)}</ul>
        </section>
      )}
      <p class="small muted">{t("tour.game_days", { n: d.max_game_days })}</p>
      <p><a class="btn ghost" href="#/tournaments" id="tour-back">{t("tour.back")}</a></p>
    </main>
  );
}

function nameOf(d: TournamentDetail, username: string): string {
  const p = d.players.find((e) => e.player.username === username)?.player;
  return p ? p.name || p.username : username;
}

/** A game of mine: the opponents, how it stands for me, a link to the table. */
function MyGameRow({ g, me }: { g: TournamentGame; me: string }) {
  const others = g.players.filter((p) => p.username !== me).map((p) => iso(p.name || p.username));
  const r = myResult(g, me);
  const status = r == null ? t("tour.game_running") : "place" in r ? t("tour.place", { n: r.place }) : t(`tour.${r.outcome}`);
  return (
    <li>
      <a class="game-row" href={`#/game/${g.game_id}`} data-tour-game={g.game_id} data-result={r == null ? "running" : "place" in r ? `place-${r.place}` : r.outcome}>
        <span class="gr-main">{t("tour.vs", { names: others.join(", ") })}</span>
        <span class="gr-sub small muted">{t("tour.round_n", { n: g.round })} · {status}</span>
      </a>
    </li>
  );
}

/** The standings: rank, player, score, the tie-breaks (short heads, full names for screen readers and in the legend
 *  below), games, and `out` in words. */
function Standings({ d, me }: { d: TournamentDetail; me: string | null }) {
  const names = d.tiebreak_names;
  // a tie-break the catalogue does not know yet (a newer server) shows by the server's name
  const tb = (n: string, long: boolean) => (TIEBREAKS.includes(n) ? t(`tour.${long ? "tb" : "tbs"}.${n}` as Key) : n);
  return (
    <section aria-labelledby="h-tour-standings">
      <h2 id="h-tour-standings">{t("tour.standings")}</h2>
      <div class="scroll-x" tabIndex={0} role="region" aria-labelledby="h-tour-standings">
        <table class="breakdown standings" id="tour-standings">
          <thead><tr>
            <th scope="col"><span aria-hidden="true">#</span><span class="sr-only">{t("tour.rank")}</span></th><th scope="col">{t("tour.player")}</th><th scope="col">{t("tour.score")}</th>
            {names.map((n) => <th scope="col" data-tb={n}><span aria-hidden="true">{tb(n, false)}</span><span class="sr-only">{tb(n, true)}</span></th>)}
            <th scope="col"><span aria-hidden="true">{t("tour.games_short")}</span><span class="sr-only">{t("tour.games")}</span></th>
          </tr></thead>
          <tbody>
            {d.standings.map((s) => (
              <tr data-player={s.player.username} data-rank={s.rank} data-score={s.score} data-out={s.out ? "1" : "0"}
                class={`${s.player.username === me ? "me" : ""} ${s.out ? "out" : ""}`}>
                <td>{s.rank}</td>
                <th scope="row"><UserName user={s.player} />{s.out && <span class="badge t-out" title={t("tour.out_label")}> ({t("tour.out")})</span>}</th>
                <td class="t-score">{points(s.score)}</td>
                {s.tiebreaks.map((x) => <td>{points(x)}</td>)}
                <td>{s.games}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {names.length > 0 && <p class="small muted" id="tour-tb-legend">{t("tour.tb_legend")} {[...names.map((n) => `${tb(n, false)} = ${tb(n, true)}`), `${t("tour.games_short")} = ${t("tour.games")}`].join(", ")}</p>}
    </section>
  );
}

const TIEBREAKS = ["buchholz", "sonneborn_berger", "head_to_head", "wins", "first_places", "opponents_points"];

/** The crosstable: a row per player (standings order), a column per opponent by number; it scrolls sideways. */
function Crosstable({ d }: { d: TournamentDetail }) {
  const { players, cells } = crossGrid(d);
  return (
    <section aria-labelledby="h-tour-cross">
      <h2 id="h-tour-cross">{t("tour.crosstable")}</h2>
      <p class="small muted">{t("tour.cross_help")}</p>
      <div class="scroll-x" tabIndex={0} role="region" aria-labelledby="h-tour-cross" id="tour-cross-scroll">
        <table class="breakdown cross" id="tour-cross">
          <thead><tr><th scope="col"><span class="sr-only">{t("tour.player")}</span></th>
            {players.map((p, j) => <th scope="col"><span aria-hidden="true">{j + 1}</span><span class="sr-only">{p.name || p.username}</span></th>)}</tr></thead>
          <tbody>
            {players.map((p, i) => (
              <tr data-player={p.username}>
                <th scope="row">{i + 1}. <UserName user={p} /></th>
                {cells[i].map((c, j) => (
                  <td class={i === j ? "diag" : ""} data-vs={players[j].username}>{i === j ? <span aria-hidden="true">×</span> : c ? c.map(points).join(" ") : ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

// ------------------------------------------------------------------------------------------- create

type FieldName = keyof TournamentCreate;

export function TournamentCreateScreen() {
  useStore();
  const [preset, setPreset] = useState<PresetId>("swiss8");
  const [f, setF] = useState<CreateForm>(() => blankForm("swiss8"));
  const [more, setMore] = useState(false);
  const [shown, setShown] = useState(false); // client problems show after the first submit
  const [server, setServer] = useState<Record<string, string[]>>({});
  const [err, setErr] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const problems = checkForm(f);
  const msg = (field: FieldName): string[] | undefined => {
    const p = problems[field];
    const mine = shown && p ? [problemText(p)] : [];
    // the engine's refusal of the options (claim-mix factions) is said under the game
    const theirs = [...(server[field] ?? []), ...(field === "kind" ? server.options ?? [] : [])];
    return mine.length || theirs.length ? [...mine, ...theirs] : undefined;
  };
  const put = (patch: Partial<CreateForm>) => {
    setF((before) => ({ ...before, ...patch }));
    setServer((before) => { const out = { ...before }; for (const k of Object.keys(FIELD_OF)) if ((FIELD_OF as Record<string, string>)[k] in patch) delete out[k]; return out; });
  };
  function choose(p: PresetId) {
    setPreset(p);
    setF((before) => ({ ...before, ...PRESETS[p] }));
    setServer({});
  }

  async function submit(e: Event) {
    e.preventDefault();
    setShown(true); setErr(null); setServer({});
    const bad = Object.keys(checkForm(f)) as FieldName[];
    if (bad.length) {
      // a problem in a hidden field opens "More options" so that it can be seen and fixed
      if (bad.some((k) => k !== "name")) setMore(true);
      setErr(t("tour.fix"));
      setTimeout(() => document.getElementById(`tf-${bad[0]}`)?.focus(), 0);
      return;
    }
    setBusy(true);
    try {
      const created = await createTournament(createBody(f));
      toast(t("tour.created"));
      navigate(`/tournaments/${created.id}`);
    } catch (x) {
      if (x instanceof ApiError) {
        setServer(x.fields);
        const named = Object.keys(x.fields);
        if (named.some((k) => k !== "name")) setMore(true);
        if (named.length) setTimeout(() => document.getElementById(`tf-${named[0]}`)?.focus(), 0);
        // a refusal of no field (409 too many tournaments, 429) is said as the server says it
        setErr(named.length ? t("tour.fix") : errorText(x));
      } else setErr(errorText(x));
    }
    setBusy(false);
  }

  const kinds = FORMAT_KINDS[f.format];
  const others = Object.keys(server).filter((k) => !(k in FIELD_OF));
  return (
    <main class="page" id="main">
      <h1>{t("tour.new_title")}</h1>
      <form onSubmit={submit} noValidate id="tour-form">
        <fieldset>
          <legend>{t("tour.preset")}</legend>
          {(Object.keys(PRESETS) as PresetId[]).map((p) => (
            <label class="radio"><input type="radio" name="preset" value={p} checked={preset === p} onChange={() => choose(p)} />{t(`tour.preset.${p}`)}</label>
          ))}
        </fieldset>
        <Field id="tf-name" label={t("tour.name")} value={f.name} onInput={(v) => put({ name: v })} required autocomplete="off" errors={msg("name")} />
        <button type="button" class="btn ghost" id="tour-more-options" aria-expanded={more} aria-controls="tour-options" onClick={() => setMore(!more)}>
          {more ? "▾" : "▸"} {t("tour.more_options")}</button>
        <div id="tour-options" hidden={!more}>
          <div class="field">
            <label for="tf-format">{t("tour.format")}</label>
            <select id="tf-format" value={f.format} aria-invalid={msg("format") ? "true" : undefined} aria-describedby={msg("format") ? "tf-format-err" : undefined}
              onChange={(e) => { const format = (e.target as HTMLSelectElement).value as TournamentFormat; put({ format, kind: FORMAT_KINDS[format].includes(f.kind) ? f.kind : FORMAT_KINDS[format][0], rounds: format === "round_robin" ? "" : f.rounds || "3" }); }}>
              {FORMATS.map((x) => <option value={x}>{t(`tour.format.${x}`)}</option>)}
            </select>
            {msg("format") && <p class="field-err" id="tf-format-err">{msg("format")!.join(" ")}</p>}
          </div>
          <div class="field">
            <label for="tf-kind">{t("tour.kind")}</label>
            <select id="tf-kind" value={f.kind} aria-invalid={msg("kind") ? "true" : undefined} aria-describedby={msg("kind") ? "tf-kind-err" : undefined}
              onChange={(e) => put({ kind: (e.target as HTMLSelectElement).value as CreateForm["kind"] })}>
              {kinds.map((k) => <option value={k}>{t(("game." + k) as Key)}</option>)}
            </select>
            {msg("kind") && <p class="field-err" id="tf-kind-err">{msg("kind")!.join(" ")}</p>}
            {f.kind === "claim-mix" && <p class="muted small">{t("tour.mix_note")}</p>}
          </div>
          <Field id="tf-max_players" label={t("tour.max_players")} type="number" inputMode="numeric" value={f.maxPlayers} onInput={(v) => put({ maxPlayers: v })} errors={msg("max_players")} />
          {f.format !== "round_robin" && <Field id="tf-rounds" label={t("tour.rounds")} type="number" inputMode="numeric" value={f.rounds} onInput={(v) => put({ rounds: v })} errors={msg("rounds")} />}
          {f.format === "round_robin" && msg("rounds") && <p class="field-err" id="tf-rounds">{msg("rounds")!.join(" ")}</p>}
          <div class="field">
            <label for="tf-time_control">{t("tour.time")}</label>
            <select id="tf-time_control" value={f.time} aria-invalid={msg("time_control") ? "true" : undefined} aria-describedby={msg("time_control") ? "tf-time_control-err" : undefined}
              onChange={(e) => put({ time: (e.target as HTMLSelectElement).value })}>
              {TOURNAMENT_TIMES.map((c) => <option value={c.id}>{describeTimeControl(choiceView(c), t, state.lang)}</option>)}
            </select>
            {msg("time_control") && <p class="field-err" id="tf-time_control-err">{msg("time_control")!.join(" ")}</p>}
          </div>
          <label class="radio"><input type="checkbox" id="tf-rated" checked={f.rated} onChange={(e) => put({ rated: (e.target as HTMLInputElement).checked })} />{t("tour.rated")}</label>
          {msg("rated") && <p class="field-err">{msg("rated")!.join(" ")}</p>}
          <Field id="tf-min_players" label={t("tour.min_players")} type="number" inputMode="numeric" value={f.minPlayers} onInput={(v) => put({ minPlayers: v })} errors={msg("min_players")} />
          <Field id="tf-rating_min" label={t("tour.rating_min")} type="number" inputMode="numeric" value={f.ratingMin} onInput={(v) => put({ ratingMin: v })} errors={msg("rating_min")} />
          <Field id="tf-rating_max" label={t("tour.rating_max")} type="number" inputMode="numeric" value={f.ratingMax} onInput={(v) => put({ ratingMax: v })} errors={msg("rating_max")} />
          <Field id="tf-min_reliability" label={t("tour.min_reliability")} type="number" inputMode="numeric" value={f.minReliability} onInput={(v) => put({ minReliability: v })} errors={msg("min_reliability")} />
          <label class="radio"><input type="checkbox" id="tf-bots_allowed" checked={f.botsAllowed} onChange={(e) => put({ botsAllowed: (e.target as HTMLInputElement).checked })} />{t("tour.bots_allowed")}</label>
          <Field id="tf-starts_at" label={t("tour.starts_at_label")} type="datetime-local" value={f.startsAt} onInput={(v) => put({ startsAt: v })} errors={msg("starts_at")} />
          <Field id="tf-max_game_days" label={t("tour.max_game_days")} type="number" inputMode="numeric" value={f.maxGameDays} onInput={(v) => put({ maxGameDays: v })} errors={msg("max_game_days")} />
        </div>
        {others.map((k) => <p class="field-err" data-field={k}>{server[k].join(" ")}</p>)}
        <FormError text={err} />
        <button class="btn primary wide" type="submit" disabled={busy} aria-busy={busy} id="tour-submit">{t("tour.submit")}</button>
      </form>
      <p><a class="btn ghost" href="#/tournaments">{t("tour.back")}</a></p>
    </main>
  );
}

/** A client-side problem in words (its numbers filled in). */
function problemText(p: Problem): string {
  return (t as unknown as (key: string, params?: Record<string, number>) => string)(p.key, p.params);
}

/** The request fields and the form's names for them (a server message on a field clears when it is edited). */
const FIELD_OF: Partial<Record<FieldName, keyof CreateForm>> = {
  name: "name", kind: "kind", format: "format", max_players: "maxPlayers", min_players: "minPlayers", rounds: "rounds",
  time_control: "time", rated: "rated", rating_min: "ratingMin", rating_max: "ratingMax", min_reliability: "minReliability", bots_allowed: "botsAllowed",
  starts_at: "startsAt", max_game_days: "maxGameDays", options: "kind",
};

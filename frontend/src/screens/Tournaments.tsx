// Tournaments (issue 36): #/tournaments[/running|/finished] the list (the API's status filter, featured first,
// keyset "More"), #/tournaments/new the create form (presets, "More options", the server's checks on the client and
// its 4xx messages on their field), and #/tournaments/ID one tournament: its terms, Join / Leave / Withdraw /
// Cancel (the server's refusals shown as they come), the standings (tie-breaks named, `out` said in words), the
// crosstable (scrolls sideways at 360 px), my games (links to the tables). Live: while the page is open the socket
// follows the tournament (`watch_tournament`) and any `tournament` event of it, a game of mine starting or ending,
// or the page coming back into view re-reads it.
import { useEffect } from "preact/hooks";
import { api } from "../api";
import type { Key } from "../i18n";
import { unwatchTournament, watchTournament } from "../realtime";
import { leagueHref } from "../league";
import { navigate } from "../router";
import { t, toast, useStore } from "../store";
import {
  actionsFor, blankForm, checkForm, createBody, createTournament, crossGrid, featuredFirst, FORMAT_KINDS, gamesPath,
  isTournamentEvent, LIST_STATUSES, listPath, myGames, myResult, points, PRESETS, roundOf, tournamentAction, tournamentHref,
  type CreateForm, type ListStatus, type PresetId, type Tournament, type TournamentCreate,
  type TournamentDetail, type TournamentFormat, type TournamentGame, type TournamentGames,
} from "../tournament";
import { Field } from "../ui";
import {
  Conditions, EntryFields, FormEnd, kindClock, KindField, ListRow, ListScreen, Presets, SelectField, StatusTabs, TimeField, useAction,
  useCreateForm, useLive, usePreset, when,
} from "./TournamentParts";
import { usePaged, type Page } from "../paged";
import { iso, UserName } from "./Watch";

const FORMATS: TournamentFormat[] = ["swiss", "round_robin", "tables"];

/** "Swiss · Claim · 3 days per move": the kind, the format and the clock of a tournament, in words. */
function terms(x: Tournament): string {
  return `${t(`tour.format.${x.format}`)} · ${kindClock(x.kind, x.time_control)}`;
}

/** Its name: a league division's round robin is named by the server in English from the league, season and
 * division, so it is said in the player's language from those; any other tournament by its creator's text. */
export function tournamentName(x: Tournament): string {
  return x.league ? t("tour.league_title", { name: x.league.name, season: x.league.season, division: x.league.division }) : x.name;
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
  const list = usePaged<Tournament>(async (cursor) => {
    if (cursor != null) return api<Page<Tournament>>("GET", listPath(status, cursor));
    const [featured, page] = await Promise.all([api<Page<Tournament>>("GET", listPath(status, null, true)), api<Page<Tournament>>("GET", listPath(status, null))]);
    return { results: featuredFirst(featured.results, page.results), next: page.next };
  }, status, (r) => r.id);
  return (
    <ListScreen prefix="tour" tab={status} list={list} section="tournaments" title={t("tour.title")} help={t("tour.help")}
      createHref="#/tournaments/new" createText={t("tour.create")} empty={t(`tour.empty_${status}`)} moreText={t("tour.more")}
      tabs={<StatusTabs label={t("tour.tabs")} statuses={LIST_STATUSES} current={status} base="tournaments" text={(k) => t(`tour.tab_${k}`)} />}
      row={(r) => <TournamentRow r={r} key={r.id} />} />
  );
}

/** One tournament in the list: its name (the creator's text), featured, kind, format, clock, players, start. */
function TournamentRow({ r }: { r: Tournament }) {
  return (
    <ListRow href={tournamentHref(r.id)} name={tournamentName(r)} featured={r.featured} data={{ tournament: r.id }}>
      <span class="gr-sub small">{terms(r)}</span>
      <span class="gr-sub small muted">{t("tour.players", { n: r.player_count, max: r.max_players })}{r.rated && <> · {t("seek.rated")}</>} · {startText(r)}</span>
    </ListRow>
  );
}

// ------------------------------------------------------------------------------------------- one tournament

export function TournamentScreen({ id }: { id: number }) {
  const st = useStore();
  const live = useLive(async () => {
    const detail = await api<TournamentDetail>("GET", `/tournaments/${id}`);
    const list = detail.status === "open" || detail.status === "cancelled" ? { results: [] as TournamentGame[] }
      : await api<TournamentGames>("GET", gamesPath(detail));
    return { detail, games: list.results };
  }, (e) => isTournamentEvent(e, id), id);
  const act = useAction(() => void live.refresh());
  useEffect(() => { watchTournament(id); return () => unwatchTournament(id); }, [id]);
  const d = live.data?.detail ?? null, games = live.data?.games ?? [], err = live.err;

  async function onAction(action: "join" | "leave" | "cancel", withdraw = false) {
    if (action === "cancel" && !confirm(t("tour.cancel_confirm"))) return;
    if (withdraw && !confirm(t("tour.withdraw_confirm"))) return;
    await act.run(async () => {
      const detail = await tournamentAction(id, action);
      live.put({ detail, games });
      toast(t(action === "join" ? "tour.joined" : action === "cancel" ? "tour.cancelled" : withdraw ? "tour.withdrawn" : "tour.left"));
      if (detail.status !== "open") void live.refresh();
    });
  }
  const busy = act.busy, actionErr = act.err;

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
      <h1 dir="auto" id="tour-name">{tournamentName(d)}</h1>
      {d.league && <p class="small" id="tour-league"><a class="tap-link" href={leagueHref(d.league.id)}>{t("tour.of_league", { name: iso(d.league.name) })}</a></p>}
      <p class="t-terms" id="tour-terms">{terms(d)}{d.rated && <> · {t("seek.rated")}</>}</p>
      <p class="row small">
        <span class={`t-status s-${d.status}`} id="tour-status">{t(`tour.status.${d.status}`)}</span>
        {round && <span id="tour-round">{d.format === "round_robin" ? t("tour.rr_rounds", { n: round.of }) : t("tour.round", { n: round.n, of: round.of })}</span>}
        <span id="tour-count">{t("tour.players", { n: d.player_count, max: d.max_players })}</span>
      </p>
      <p class="small muted">{startText(d)} · {t("tour.by", { name: iso(d.created_by.name || d.created_by.username) })}
<Conditions x={d} /></p>
      {d.my_entry && <p class="notice done" id="tour-mine">{d.my_entry.withdrawn_at ? t("tour.you_out") : t("tour.you_in")}</p>}
      <div class="row" id="tour-actions">
        {can.join && <button type="button" class="btn primary" id="tour-join" disabled={busy} onClick={() => void onAction("join")}>{t("tour.join")}</button>}
        {can.leave && <button type="button" class="btn" id="tour-leave" disabled={busy} onClick={() => void onAction("leave")}>{t("tour.leave")}</button>}
        {can.withdraw && <button type="button" class="btn" id="tour-withdraw" disabled={busy} onClick={() => void onAction("leave", true)}>{t("tour.withdraw")}</button>}
        {can.cancel && <button type="button" class="btn ghost danger" id="tour-cancel" disabled={busy} onClick={() => void onAction("cancel")}>{t("tour.cancel")}</button>}
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
  const form = useCreateForm<CreateForm, FieldName>(() => blankForm("swiss8"), FIELD_OF, (x) => checkForm(x), "tf");
  const { f, put, more, setMore, msg } = form;
  const { preset, choose } = usePreset<PresetId, CreateForm>(form, PRESETS, "swiss8");
  const submit = (e: Event) => form.submit(e, (x) => createTournament(createBody(x)), (id) => navigate(`/tournaments/${id}`), t("tour.created"));

  const kinds = FORMAT_KINDS[f.format];
  return (
    <main class="page" id="main">
      <h1>{t("tour.new_title")}</h1>
      <form onSubmit={submit} noValidate id="tour-form">
        <Presets ids={Object.keys(PRESETS) as PresetId[]} current={preset} text={(p) => t(`tour.preset.${p}`)} onChoose={choose} />
        <Field id="tf-name" label={t("tour.name")} value={f.name} onInput={(v) => put({ name: v })} required autocomplete="off" errors={msg("name")} />
        <button type="button" class="btn ghost" id="tour-more-options" aria-expanded={more} aria-controls="tour-options" onClick={() => setMore(!more)}>
          {more ? "▾" : "▸"} {t("tour.more_options")}</button>
        <div id="tour-options" hidden={!more}>
          <SelectField id="tf-format" label={t("tour.format")} value={f.format} errors={msg("format")} options={FORMATS.map((x) => ({ value: x, text: t(`tour.format.${x}`) }))}
            onChange={(format) => put({ format, kind: FORMAT_KINDS[format].includes(f.kind) ? f.kind : FORMAT_KINDS[format][0], rounds: format === "round_robin" ? "" : f.rounds || "3" })} />
          <KindField id="tf-kind" kinds={kinds} value={f.kind} errors={msg("kind")} onChange={(kind) => put({ kind })} />
          <Field id="tf-max_players" label={t("tour.max_players")} type="number" inputMode="numeric" value={f.maxPlayers} onInput={(v) => put({ maxPlayers: v })} errors={msg("max_players")} />
          {f.format !== "round_robin" && <Field id="tf-rounds" label={t("tour.rounds")} type="number" inputMode="numeric" value={f.rounds} onInput={(v) => put({ rounds: v })} errors={msg("rounds")} />}
          {f.format === "round_robin" && msg("rounds") && <p class="field-err" id="tf-rounds">{msg("rounds")!.join(" ")}</p>}
          <TimeField id="tf-time_control" value={f.time} errors={msg("time_control")} onChange={(time) => put({ time })} />
          <label class="radio"><input type="checkbox" id="tf-rated" checked={f.rated} onChange={(e) => put({ rated: (e.target as HTMLInputElement).checked })} />{t("tour.rated")}</label>
          {msg("rated") && <p class="field-err">{msg("rated")!.join(" ")}</p>}
          <Field id="tf-min_players" label={t("tour.min_players")} type="number" inputMode="numeric" value={f.minPlayers} onInput={(v) => put({ minPlayers: v })} errors={msg("min_players")} />
          <EntryFields prefix="tf" f={f} put={put} msg={msg} />
          <Field id="tf-starts_at" label={t("tour.starts_at_label")} type="datetime-local" value={f.startsAt} onInput={(v) => put({ startsAt: v })} errors={msg("starts_at")} />
          <Field id="tf-max_game_days" label={t("tour.max_game_days")} type="number" inputMode="numeric" value={f.maxGameDays} onInput={(v) => put({ maxGameDays: v })} errors={msg("max_game_days")} />
        </div>
        <FormEnd err={form.err} others={form.others} server={form.server} busy={form.busy} id="tour-submit" text={t("tour.submit")} />
      </form>
      <p><a class="btn ghost" href="#/tournaments">{t("tour.back")}</a></p>
    </main>
  );
}

/** The request fields and the form's names for them (a server message on a field clears when it is edited). */
const FIELD_OF: Partial<Record<FieldName, keyof CreateForm>> = {
  name: "name", kind: "kind", format: "format", max_players: "maxPlayers", min_players: "minPlayers", rounds: "rounds",
  time_control: "time", rated: "rated", rating_min: "ratingMin", rating_max: "ratingMax", min_reliability: "minReliability", bots_allowed: "botsAllowed",
  starts_at: "startsAt", max_game_days: "maxGameDays", options: "kind",
};

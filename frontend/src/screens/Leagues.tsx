// Seasonal leagues (issue 36): #/leagues[/running|/closed] the list (the API's status filter, featured first, keyset
// "More"; beside the tournaments' list in the same section), #/leagues/new the create form (presets, "More options",
// the server's checks on the client and its 4xx messages on their field), and #/leagues/ID one league: its terms,
// Join / Leave (the server's refusals shown as they come), my membership, the running season's divisions (the top
// first, mine marked in words; each a round-robin tournament whose page has the standings), the members waiting
// for the next season, and the previous season's promotion and relegation (arrows and words). Live: a `tournament`
// event of one of its divisions, a game of mine starting or ending, or the page coming back into view re-reads it.
import { api } from "../api";
import type { Key } from "../i18n";
import {
  blankLeagueForm, checkLeagueForm, createLeague, divisionsOf, LEAGUE_KINDS, LEAGUE_PRESETS, LEAGUE_STATUSES, leagueAction,
  leagueBody, leagueHref, leagueListPath, MOVE_ARROWS, movesByDivision, myStanding, leagueActions,
  type Division, type League, type LeagueCreate, type LeagueDetail, type LeagueForm, type LeaguePresetId, type LeagueStatus, type Move,
} from "../league";
import { navigate } from "../router";
import { t, toast, useStore } from "../store";
import { featuredFirst, isTournamentEvent, tournamentHref } from "../tournament";
import { Field } from "../ui";
import {
  Conditions, EntryFields, FormEnd, kindClock, KindField, ListRow, ListScreen, Presets, StatusTabs, TimeField, useAction, useCreateForm,
  useLive, usePreset, when,
} from "./TournamentParts";
import { usePaged, type Page } from "../paged";
import { UserName } from "./Watch";

/** "Running: season 2", "Closing after season 2", "First season: 7 Dec 2026, 18:00", "Closed". */
function statusText(lg: League): string {
  if (lg.status === "closed") return t("league.status.closed");
  if (lg.closing) return t("league.closing", { n: lg.current_season });
  if (lg.status === "running") return t("league.status.running", { n: lg.current_season });
  return lg.current_season ? t("league.next_season") : t("league.first_season", { when: when(lg.starts_at) });
}

// ------------------------------------------------------------------------------------------- the list

export function LeagueList({ tab }: { tab?: string | null }) {
  useStore();
  const status: LeagueStatus = LEAGUE_STATUSES.includes(tab as LeagueStatus) ? (tab as LeagueStatus) : "open";
  const list = usePaged<League>((cursor) => api<Page<League>>("GET", leagueListPath(status, cursor)), status, (r) => r.id);
  return (
    <ListScreen prefix="league" tab={status} list={{ ...list, rows: featuredFirst([], list.rows) }} section="leagues" title={t("league.title")}
      help={t("league.help")} createHref="#/leagues/new" createText={t("league.create")} empty={t(`league.empty_${status}`)} moreText={t("league.more")}
      tabs={<StatusTabs label={t("league.tabs")} statuses={LEAGUE_STATUSES} current={status} base="leagues" text={(k) => t(`league.tab_${k}`)} />}
      row={(r) => <LeagueRow r={r} key={r.id} />} />
  );
}

/** One league in the list: its name (the creator's text), featured, kind, clock, the ladder's terms, members, state. */
function LeagueRow({ r }: { r: League }) {
  return (
    <ListRow href={leagueHref(r.id)} name={r.name} featured={r.featured} data={{ league: r.id }}>
      <span class="gr-sub small">{kindClock(r.kind, r.time_control)}{r.rated && <> · {t("seek.rated")}</>}</span>
      <span class="gr-sub small muted">{t("league.ladder", { size: r.division_size, days: r.season_days })} · {t("league.members", { n: r.member_count, max: r.max_members })}</span>
      <span class="gr-sub small muted">{statusText(r)}</span>
    </ListRow>
  );
}

// ------------------------------------------------------------------------------------------- one league

export function LeagueScreen({ id }: { id: number }) {
  const st = useStore();
  const live: ReturnType<typeof useLive<LeagueDetail>> = useLive(() => api<LeagueDetail>("GET", `/leagues/${id}`), (e: unknown): boolean => {
    const ids: (number | null)[] = live.data?.season?.divisions.map((d) => d.tournament_id) ?? [];
    return isTournamentEvent(e) && ids.includes(e.tournament_id);
  }, id);
  const act = useAction(() => void live.refresh());
  const lg = live.data;

  async function onAction(action: "join" | "leave") {
    if (action === "leave" && lg && myStanding(lg).state === "playing" && !confirm(t("league.leave_confirm"))) return;
    await act.run(async () => {
      live.put(await leagueAction(id, action));
      toast(t(action === "join" ? "league.joined" : "league.left"));
    });
  }

  if (!lg) {
    return (
      <main class="page narrow" id="main" data-league={id}>
        {live.err ? <p class="form-err" role="alert" id="league-error">{live.err}</p> : <p aria-busy="true">{t("common.loading")}</p>}
        <p><a class="btn ghost" href="#/leagues" id="league-back">{t("league.back")}</a></p>
      </main>
    );
  }
  const me = st.me?.username ?? null;
  const can = leagueActions(lg, me);
  const mine = myStanding(lg);
  const { divisions, mine: myDivision } = divisionsOf(lg, me);
  return (
    <main class="page" id="main" data-league={id} data-status={lg.status} data-season={lg.season?.number ?? 0}>
      <div class="row-between">
        <h1 dir="auto" id="league-name">{lg.name}</h1>
        <button type="button" class="btn ghost" id="league-refresh" onClick={() => void live.refresh()}>{t("common.refresh")}</button>
      </div>
      <p class="t-terms" id="league-terms">{kindClock(lg.kind, lg.time_control)}{lg.rated && <> · {t("seek.rated")}</>}</p>
      <p class="row small"><span class={`t-status s-${lg.status}`} id="league-status">{statusText(lg)}</span>
        <span id="league-count">{t("league.members", { n: lg.member_count, max: lg.max_members })}</span></p>
      <dl class="l-terms" id="league-rules">
        <dt>{t("league.t_division")}</dt><dd>{t("league.players_n", { n: lg.division_size })}</dd>
        <dt>{t("league.t_season")}</dt><dd>{t("league.days_n", { n: lg.season_days })}</dd>
        <dt>{t("league.t_movers")}</dt><dd>{t("league.movers_n", { n: lg.movers })}</dd>
        <dt>{t("league.entry")}</dt><dd id="league-entry">{t("league.entry_any")}<Conditions x={lg} /></dd>
        {lg.current_season > 0 && <><dt>{t("league.started")}</dt><dd>{when(lg.starts_at)}</dd></>}
        <dt>{t("league.by_label")}</dt><dd><UserName user={lg.created_by} /></dd>
      </dl>
      {mine.state !== "none" && <p class="notice done" id="league-mine" data-state={mine.state}>{mineText(mine, lg)}</p>}
      <div class="row" id="league-actions">
        {can.join && <button type="button" class="btn primary" id="league-join" disabled={act.busy} onClick={() => void onAction("join")}>{t("league.join")}</button>}
        {can.leave && <button type="button" class="btn" id="league-leave" disabled={act.busy} onClick={() => void onAction("leave")}>{t("league.leave")}</button>}
      </div>
      <p class="form-err" role="alert" id="league-action-error">{act.err}</p>
      {live.err && <p class="form-err" role="alert">{live.err}</p>}

      {lg.season ? (
        <section aria-labelledby="h-league-season" id="league-season">
          <h2 id="h-league-season">{t("league.season_n", { n: lg.season.number })}</h2>
          <p class="small muted" id="league-dates">{t("league.dates", { start: when(lg.season.starts_at), end: when(lg.season.ends_at) })}</p>
          <p class="small muted">{t("league.divisions_help")}</p>
          {divisions.map((d) => <DivisionBox d={d} mine={d.division === myDivision} top={d.division === 1} bottom={d === divisions[divisions.length - 1]} key={d.division} />)}
        </section>
      ) : lg.status !== "closed" && <p class="muted" id="league-no-season">{lg.current_season ? t("league.no_season_next") : t("league.no_season")}</p>}

      <section aria-labelledby="h-league-waiting">
        <h2 id="h-league-waiting">{t("league.waiting", { n: lg.waiting.length })}</h2>
        {lg.waiting.length ? <ul class="l-waiting l-players" id="league-waiting">{lg.waiting.map((p) => <li data-player={p.username}><UserName user={p} /></li>)}</ul>
          : <p class="small muted">{t("league.waiting_none")}</p>}
      </section>

      {lg.previous_season && <Moves n={lg.previous_season.number} moves={lg.previous_season.moves} me={me} />}
      <p><a class="btn ghost" href="#/leagues" id="league-back">{t("league.back")}</a></p>
    </main>
  );
}

function mineText(mine: ReturnType<typeof myStanding>, lg: LeagueDetail): string {
  if (mine.state === "playing") return t("league.you_play", { n: mine.division });
  if (mine.state === "left") return t("league.you_left");
  return lg.current_season ? t("league.you_wait") : t("league.you_wait_first", { when: when(lg.starts_at) });
}

/** A division of the running season: its number (the top, mine said in words), players in ladder order, and the
 *  link to its tournament (the standings, the crosstable, the games). */
function DivisionBox({ d, mine, top, bottom }: { d: Division; mine: boolean; top: boolean; bottom: boolean }) {
  const hid = `h-division-${d.division}`;
  return (
    <section class={`card-panel l-division ${mine ? "me" : ""}`} aria-labelledby={hid} data-division={d.division} data-mine={mine ? "1" : "0"}>
      <h3 id={hid}>{t("league.division_n", { n: d.division })}
        {top && <span class="badge"> · {t("league.top")}</span>}
        {!top && bottom && <span class="badge"> · {t("league.bottom")}</span>}
        {mine && <span class="badge l-mine"> · ★ {t("league.yours")}</span>}</h3>
      <ol class="t-entrants l-players">{d.players.map((p) => <li data-player={p.username}><UserName user={p} /></li>)}</ol>
      {d.tournament_id != null
        ? <a class="btn wide" href={tournamentHref(d.tournament_id)} data-division-link={d.tournament_id}>{t("league.standings", { n: d.division })}</a>
        : <p class="small muted">{t("league.division_starting")}</p>}
    </section>
  );
}

/** What a move did, in words (the arrow beside it is decoration). */
function moveText(m: Move): string {
  switch (m.movement) {
    case "promoted": return t("league.move.promoted", { to: m.to ?? 0 });
    case "relegated": return t("league.move.relegated", { to: m.to ?? 0 });
    case "stayed": return t("league.move.stayed", { to: m.to ?? 0 });
    case "entered": return t("league.move.entered", { to: m.to ?? 0 });
    default: return t("league.move.dropped");
  }
}

/** The previous season's promotion and relegation, by division (the top first), the newcomers last. */
function Moves({ n, moves, me }: { n: number; moves: Move[]; me: string | null }) {
  return (
    <section aria-labelledby="h-league-moves" id="league-moves">
      <h2 id="h-league-moves">{t("league.moves_title", { n })}</h2>
      {movesByDivision(moves).map((g) => (
        <div class="l-moves" data-from={g.division ?? "new"}>
          <h3>{g.division == null ? t("league.newcomers") : t("league.division_n", { n: g.division })}</h3>
          <ul class="l-move-list">
            {g.moves.map((m) => (
              <li data-player={m.player.username} data-movement={m.movement} class={`mv-${m.movement} ${m.player.username === me ? "me" : ""}`}>
                <span class="l-arrow" aria-hidden="true">{MOVE_ARROWS[m.movement]}</span>
                <span class="l-who">{m.rank != null && <>{m.rank}. </>}<UserName user={m.player} /></span>
                <span class="l-what small">{moveText(m)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

// ------------------------------------------------------------------------------------------- create

type FieldName = keyof LeagueCreate;

/** The request fields and the form's names for them (a server message on a field clears when it is edited). */
const FIELD_OF: Partial<Record<FieldName, keyof LeagueForm>> = {
  name: "name", kind: "kind", options: "kind", time_control: "time", rated: "rated", division_size: "divisionSize",
  season_days: "seasonDays", movers: "movers", max_members: "maxMembers", rating_min: "ratingMin", rating_max: "ratingMax",
  min_reliability: "minReliability", bots_allowed: "botsAllowed", starts_at: "startsAt",
};

export function LeagueCreateScreen() {
  useStore();
  const form = useCreateForm<LeagueForm, FieldName>(() => blankLeagueForm("monthly"), FIELD_OF, (x) => checkLeagueForm(x), "lf");
  const { f, put, more, setMore, msg } = form;
  const { preset, choose } = usePreset<LeaguePresetId, LeagueForm>(form, LEAGUE_PRESETS, "monthly");
  const submit = (e: Event) => form.submit(e, (x) => createLeague(leagueBody(x)), (made) => navigate(`/leagues/${made}`), t("league.created"));
  const num = (field: "division_size" | "season_days" | "movers" | "max_members", key: "divisionSize" | "seasonDays" | "movers" | "maxMembers") => (
    <Field id={`lf-${field}`} label={t(`league.${field}` as Key)} type="number" inputMode="numeric" value={f[key]} onInput={(v) => put({ [key]: v })} errors={msg(field)} />
  );
  return (
    <main class="page" id="main">
      <h1>{t("league.new_title")}</h1>
      <p class="muted small">{t("league.new_help")}</p>
      <form onSubmit={submit} noValidate id="league-form">
        <Presets ids={Object.keys(LEAGUE_PRESETS) as LeaguePresetId[]} current={preset} text={(p) => t(`league.preset.${p}`)} onChoose={choose} />
        <Field id="lf-name" label={t("tour.name")} value={f.name} onInput={(v) => put({ name: v })} required autocomplete="off" errors={msg("name")} />
        <Field id="lf-starts_at" label={t("league.starts_at_label")} type="datetime-local" value={f.startsAt} onInput={(v) => put({ startsAt: v })} errors={msg("starts_at")} required />
        <button type="button" class="btn ghost" id="league-more-options" aria-expanded={more} aria-controls="league-options" onClick={() => setMore(!more)}>
          {more ? "▾" : "▸"} {t("tour.more_options")}</button>
        <div id="league-options" hidden={!more}>
          <KindField id="lf-kind" kinds={LEAGUE_KINDS} value={f.kind} errors={msg("kind")} onChange={(kind) => put({ kind })} />
          <TimeField id="lf-time_control" value={f.time} errors={msg("time_control")} onChange={(time) => put({ time })} />
          <label class="radio"><input type="checkbox" id="lf-rated" checked={f.rated} onChange={(e) => put({ rated: (e.target as HTMLInputElement).checked })} />{t("tour.rated")}</label>
          {num("division_size", "divisionSize")}
          {num("season_days", "seasonDays")}
          {num("movers", "movers")}
          {num("max_members", "maxMembers")}
          <EntryFields prefix="lf" f={f} put={put} msg={msg} />
        </div>
        <FormEnd err={form.err} others={form.others} server={form.server} busy={form.busy} id="league-submit" text={t("league.submit")} />
      </form>
      <p><a class="btn ghost" href="#/leagues">{t("league.back")}</a></p>
    </main>
  );
}



// Profiles (ratings per pool, rating history chart as inline SVG, reliability) and leaderboards per pool.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api";
import { ratingChart, type HistoryPoint } from "../corr";
import { normGame, opponentNames } from "../game";
import type { Key } from "../i18n";
import { usePaged } from "../paged";
import { errorText, t, useStore } from "../store";
import { relTime } from "../ui";
import { SocialCard, PublicRatings, usePublicProfile } from "./PublicProfile";

export type PoolRating = Schemas["SeatRating"];
/** GET /ratings/me, /ratings/users/{username}. */
export type ProfileData = Schemas["RatingProfile"];
/** One entry of GET /ratings/pools. */
export type PoolInfo = Schemas["Pool"];
type Board = Schemas["Leaderboard"];

/** "Claim", "Claim (3 players)"; ``fallback`` (the API's English name) for a kind the app doesn't know. */
export function poolName(pool: string, fallback?: string): string {
  const m = pool.match(/^(.*)-([34])p$/);
  const kind = m ? m[1] : pool;
  if (!["claim", "claim2", "claim-mix", "inheritors"].includes(kind) && fallback) return fallback;
  const title = ["claim", "claim2", "claim-mix", "inheritors"].includes(kind) ? t(("game." + kind) as Key) : kind;
  return m ? t("rating.pool_n", { game: title, n: m[2] }) : title;
}

export function RatingChart({ history, pool }: { history: HistoryPoint[]; pool: string }) {
  const W = 300, H = 90;
  const c = ratingChart(history, pool, W, H, 6);
  if (c.points.length < 2) return null;
  const last = c.points[c.points.length - 1];
  const label = t("rating.chart_label", { pool: poolName(pool), from: c.points[0].rating, to: last.rating, n: c.points.length - 1 });
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} preserveAspectRatio="none">
        {c.ticks.map((v) => {
          const y = 6 + ((c.max - v) * (H - 12)) / (c.max - c.min);
          return <line x1="0" x2={W} y1={y} y2={y} class="grid" />;
        })}
        <path d={c.path} class="line" fill="none" />
        {c.points.map((p) => <circle cx={p.x} cy={p.y} r="2.5" class="pt"><title>{`${p.rating}`}</title></circle>)}
      </svg>
      <figcaption class="small muted" aria-hidden="true"><span>{c.max}</span><span>{c.min}</span></figcaption>
    </figure>
  );
}

export function RatingsTable({ data }: { data: ProfileData }) {
  if (!data.ratings.length) return <p class="muted">{t("rating.none")}</p>;
  return (
    <table class="breakdown ratings" id="ratings">
      <caption class="sr-only">{t("rating.title")}</caption>
      <thead><tr><th scope="col">{t("rating.pool")}</th><th scope="col">{t("rating.rating")}</th><th scope="col">{t("rating.games")}</th><th scope="col">{t("rating.wld")}</th></tr></thead>
      <tbody>
        {data.ratings.map((r) => (
          <tr data-pool={r.pool}>
            <th scope="row"><a href={`#/leaders/${r.pool}`}>{poolName(r.pool)}</a></th>
            <td>{r.rating}{r.provisional ? "?" : ""} <span class="muted small">±{r.deviation}</span></td>
            <td>{r.games}</td>
            <td>{r.wins}/{r.losses}/{r.draws}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function useProfile(username: string | null) {
  const [data, setData] = useState<ProfileData | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    setData(null); setErr(null);
    api<ProfileData>("GET", username ? `/ratings/users/${encodeURIComponent(username)}` : "/ratings/me")
      .then(setData).catch((e) => setErr(errorText(e)));
  }, [username]);
  return { data, err };
}

/** My ratings on the settings screen, with a link to my profile. */
export function MyRatings() {
  const st = useStore();
  const { data, err } = useProfile(null);
  return (
    <section aria-labelledby="h-rat">
      <h2 id="h-rat">{t("rating.title")}</h2>
      {err && <p class="form-err">{err}</p>}
      {!data && !err && <p aria-busy="true">{t("common.loading")}</p>}
      {data && <RatingsTable data={data} />}
      {data && <p class="small">{t("rating.reliability", { n: data.reliability })}</p>}
      <p class="row"><a class="btn" href={`#/profile/${encodeURIComponent(st.me!.username)}`}>{t("rating.my_profile")}</a>
        <a class="btn ghost" href="#/leaders/claim">{t("rating.leaderboards")}</a></p>
    </section>
  );
}

export function Profile({ username }: { username: string }) {
  useStore();
  const { data, err } = useProfile(username);
  const pub = usePublicProfile(username);
  const pools = data ? [...new Set(data.history.map((h) => h.pool))] : [];
  return (
    <main class="page" id="main">
      <h1 dir="auto" class="uname">{pub ? pub.user.name : data ? data.name : username}</h1>
      {data && data.name !== data.username && <p class="muted" dir="auto">@{data.username}</p>}
      {pub && <SocialCard p={pub} />}
      {err && <p class="form-err" role="alert">{err}</p>}
      {!data && !err && <p aria-busy="true">{t("common.loading")}</p>}
      {data && (
        <>
          <p>{t("rating.reliability", { n: pub ? pub.reliability : data.reliability })}</p>
          {pub && pub.ratings.length > 0 ? <PublicRatings p={pub} /> : <RatingsTable data={data} />}
          <h2>{t("rating.history")}</h2>
          {pools.length === 0 && <p class="muted">{t("rating.no_history")}</p>}
          {pools.map((p) => (
            <section aria-label={poolName(p)}>
              <h3 class="small">{poolName(p)}</h3>
              <RatingChart history={data.history} pool={p} />
            </section>
          ))}
          <ul class="hist small">
            {data.history.slice(0, 10).map((h) => (
              <li>{poolName(h.pool)}: {h.before} → <strong>{h.after}</strong> ({h.after - h.before >= 0 ? "+" : ""}{h.after - h.before})
                {h.game_id && <> · <a href={`#/replay/${h.game_id}`}>{t("replay.open")}</a></>} <span class="muted">{relTime(h.at)}</span></li>
            ))}
          </ul>
        </>
      )}
      <ProfileGames username={username} />
      <p><a class="btn ghost" href="#/leaders/claim">{t("rating.leaderboards")}</a></p>
    </main>
  );
}

/** One entry of GET /users/{username}/games: the inbox summary plus the listed player's seat and outcome. */
type ProfileGame = Schemas["ProfileGame"];

/** The player's finished games, newest first, a page at a time (keyset: the answer's ``next``); each opens
 *  its replay. */
export function ProfileGames({ username }: { username: string }) {
  const { rows, next, loaded, busy, err, load } = usePaged<ProfileGame>((cursor) => {
    const q = `limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    return api<Schemas["ProfileGamesPage"]>("GET", `/users/${encodeURIComponent(username)}/games?${q}`);
  }, username, (r) => r.id);
  const outcome = (o: ProfileGame["outcome"]) => (o === "win" ? t("extra.won") : o === "loss" ? t("extra.lost") : t("extra.draw"));
  return (
    <section aria-labelledby="h-pgames" id="profile-games">
      <h2 id="h-pgames">{t("extra.games_title")}</h2>
      {err && <p class="form-err" role="alert">{err}</p>}
      {loaded && !rows.length && !err && <p class="muted">{t("extra.games_none")}</p>}
      <ul class="games">
        {rows.map((r) => {
          // the names as the listed player sees them: the summary's seats with theirs as "you"
          const { player_seat: seat, outcome: _o, ended_reason: _e, finished_at: _f, ...summary } = r;
          const g = normGame({ ...summary, my_seat: seat, seats: r.seats.map((s) => ({ ...s, you: s.index === seat })) });
          const vs = opponentNames(g).names.join(", ");
          const how = r.ended_reason === "resigned" ? ` (${t("extra.resigned")})` : r.ended_reason === "timeout" ? ` (${t("extra.timeout")})` : "";
          return (
            <li key={r.id}>
              <a class="game-row" href={`#/replay/${r.id}`} data-pgame={r.id}>
                <span class="gr-main"><strong>{t(("game." + r.kind) as Key)}</strong> <span>{t("inbox.vs", { name: vs })}</span></span>
                <span class="gr-sub small">
                  <span class={`badge ${r.outcome === "win" ? "hot" : ""}`}>{outcome(r.outcome)}{how}</span>
                  <span class="muted"> · {r.rated ? t("seek.rated") : t("seek.casual")} · {relTime(r.finished_at)}</span>
                </span>
              </a>
            </li>
          );
        })}
      </ul>
      {next && <button type="button" class="btn wide" id="pgames-more" disabled={busy} aria-busy={busy} onClick={() => void load(next)}>{busy ? t("common.loading") : t("extra.games_more")}</button>}
    </section>
  );
}

export function Leaderboard({ pool }: { pool: string }) {
  useStore();
  const [data, setData] = useState<Board | null>(null);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    setData(null); setErr(null);
    api<Board>("GET", `/leaderboards/${encodeURIComponent(pool)}`).then(setData)
      .catch((e) => setErr(errorText(e)));
  }, [pool]);
  // The picker lists the server's pools (GET /ratings/pools) with their number of rated players.
  const [pools, setPools] = useState<PoolInfo[] | null>(null);
  useEffect(() => {
    api<PoolInfo[]>("GET", "/ratings/pools").then(setPools).catch(() => setPools([]));
  }, []);
  const picker = pools && pools.length ? pools : [{ pool, name: pool, players: null as number | null }];
  return (
    <main class="page" id="main">
      <h1>{t("rating.leaderboards")}</h1>
      <nav class="seg wrap" aria-label={t("rating.pool")}>
        {picker.map((p) => (
          <a class={`seg-b ${p.pool === pool ? "on" : ""}`} href={`#/leaders/${p.pool}`} aria-current={p.pool === pool ? "page" : undefined}
            data-pool={p.pool}>{poolName(p.pool, p.name)}{p.players != null && <><span class="count" aria-hidden="true">{p.players}</span><span class="sr-only"> ({t("rating.players_n", { n: p.players })})</span></>}</a>
        ))}
      </nav>
      {err && <p class="form-err" role="alert">{err}</p>}
      {!data && !err && <p aria-busy="true">{t("common.loading")}</p>}
      {data && (
        <>
          <table class="breakdown" id="leaderboard">
            <caption>{poolName(pool)}</caption>
            <thead><tr><th scope="col">#</th><th scope="col">{t("rating.player")}</th><th scope="col">{t("rating.rating")}</th><th scope="col">{t("rating.games")}</th></tr></thead>
            <tbody>
              {data.players.map((p) => (
                <tr><td>{p.rank}</td><th scope="row"><a href={`#/profile/${encodeURIComponent(p.username)}`}>{p.name}</a></th><td>{p.rating}</td><td>{p.games}</td></tr>
              ))}
              {data.players.length === 0 && <tr><td colSpan={4} class="muted">{t("rating.board_empty")}</td></tr>}
            </tbody>
          </table>
          <h2 class="small">{t("rating.ai_levels")}</h2>
          <ul class="hist small">
            {data.ai.map((a) => <li>{t("new.level", { n: a.level })} ({a.name}): <strong>{a.rating}</strong> ±{a.deviation}</li>)}
          </ul>
        </>
      )}
    </main>
  );
}

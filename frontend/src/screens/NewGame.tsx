import { useState } from "preact/hooks";
import { api, ApiError, type Schemas } from "../api";
import { defaultMix, factionTitle, mixProblem, PAIRS, SINGLES, type Faction } from "../cards";
export { defaultMix };
import { RulingsNotice } from "./Rules";
import { Glyph } from "../Card";
import { inhTranslate } from "../i18n/inheritors";
import type { Key } from "../i18n";
import { navigate } from "../router";
import { errorText, putGame, state, t, toast, useStore } from "../store";
import { Field, FormError } from "../ui";
import { choiceView, describeTimeControl, TIME_CHOICES } from "../corr";
import { Lobby } from "./Lobby";
import { challengeTarget } from "../social";


/** The AI levels by the names the tables and docs/ai.md give them (seat labels: "Boris · AI, Knight level"). */
const AI_LEVELS = ["Squire", "Knight", "King"];


export function NewGame() {
  useStore();
  // #/new?challenge=NAME (a profile's or the friends page's Challenge): that player, by username.
  const target = challengeTarget(location.hash);
  const [opp, setOpp] = useState<"ai" | "user" | "open" | "seek">(target ? "user" : "ai");
  const [range, setRange] = useState<number | null>(null);
  const [level, setLevel] = useState<Schemas["LevelEnum"]>(1);
  const [username, setUsername] = useState(target ?? "");
  const [kind, setKind] = useState<Schemas["GameKindEnum"]>("claim");
  const [mix, setMix] = useState<string[]>(defaultMix(2));
  const [seats, setSeats] = useState(2);
  const [tcId, setTcId] = useState("d3"); // a TIME_CHOICES id: days per move, a bank, or unlimited
  const [rated, setRated] = useState(false);
  // Others may watch (issue 35, docs/rulings.md): on for matchmaking and AI games, off for an invitation,
  // until the player says otherwise.
  const [watchChoice, setWatchChoice] = useState<boolean | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  // 3-4 players: only the combined deck (claim-mix, one pair + 5 singles; M3.1)
  const multi = kind === "claim-mix" || kind === "inheritors";
  const n = multi ? seats : 2;
  const problem = kind === "claim-mix" ? mixProblem(mix, n) : null;
  // Unlimited games are never rated.
  const choices = TIME_CHOICES;
  const choice = choices.find((c) => c.id === tcId) ?? choices[2];
  const timed = choice.id !== "unlimited";
  const watchable = watchChoice ?? (opp === "seek" || opp === "ai");

  function choosePair(i: number) {
    const keep = mix.filter((f) => !PAIRS.flat().includes(f as Faction));
    setMix([...PAIRS[i], ...keep]);
  }
  function toggleSingle(f: string) {
    setMix(mix.includes(f) ? mix.filter((x) => x !== f) : [...mix, f]);
  }

  /** A seek (matchmaking) or "play now": straight to the game when paired at once, else to the inbox. */
  async function seek(quick: boolean) {
    if (problem) return;
    setBusy(true); setErr(null); setFields({});
    try {
      const game: Schemas["QuickRequest"] = { kind, options: kind === "claim-mix" ? { factions: mix } : {}, seats: n, time_control: choice.body, rated: rated && timed, watchable };
      const body: Schemas["QuickRequest"] | Schemas["SeekRequest"] = quick ? game : { ...game, rating_range: range };
      const s = await api<Schemas["SeekOut"]>("POST", quick ? "/seeks/quick" : "/seeks", body);
      if (s.game_id) navigate(`/game/${s.game_id}`);
      else { toast(t(quick ? "seek.quick_waiting" : "seek.posted")); navigate("/"); }
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(errorText(x));
    } finally {
      setBusy(false);
    }
  }

  /** A friend by username, or anyone with the link: a challenge (two seats; docs/api.md, "Challenges"). Its page
   *  waits for the answer and opens the table once it is accepted. */
  async function challenge() {
    try {
      const body: Schemas["ChallengeCreateRequest"] = {
        to: opp === "user" ? username.trim() : null,
        kind,
        options: kind === "claim-mix" ? { factions: mix } : {},
        time_control: choice.body,
        rated: timed && rated,
        watchable,
      };
      const c = await api<Schemas["Challenge"]>("POST", "/challenges", body);
      navigate(`/challenge/${c.id}`);
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(errorText(x));
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: Event) {
    e.preventDefault();
    if (problem) return;
    if (opp === "seek") return seek(false);
    setBusy(true); setErr(null); setFields({});
    if ((opp === "user" || opp === "open") && n === 2) return challenge();
    type Opponent = Schemas["OpponentRequest"];
    const opponent: Opponent = opp === "ai" ? { type: "ai", level } : opp === "user" ? { type: "user", username: username.trim() } : { type: "open" };
    // 3-4 players (a challenge has two seats): every other seat like the first, a named friend takes the first one
    const opponents = Array.from({ length: n - 1 }, (_, i): Opponent => (i > 0 && opp === "user" ? { type: "open" } : opponent));
    try {
      const body: Schemas["CreateGameRequest"] = {
        kind,
        options: kind === "claim-mix" ? { factions: mix } : {},
        seats: n,
        opponents,
        time_control: choice.body,
        rated: opp === "ai" || !timed ? false : rated,
        watchable,
      };
      const game = putGame(await api<Schemas["GameView"]>("POST", "/games", body));
      navigate(`/game/${game.id}`);
    } catch (x) {
      if (x instanceof ApiError) setFields(x.fields);
      setErr(errorText(x));
    } finally {
      setBusy(false);
    }
  }

  const pairIdx = PAIRS.findIndex(([a]) => mix.includes(a));
  return (
    <main class="page" id="main">
      <h1>{t("new.title")}</h1>
      <button type="button" class="btn ghost" id="to-lobby" onClick={() => document.getElementById("lobby")?.scrollIntoView({ block: "start" })}>{t("extra.lobby_link")}</button>
      <form onSubmit={submit}>
        <fieldset>
          <legend>{t("new.opponent")}</legend>
          {(["ai", "seek", "user", "open"] as const).map((o) => (
            <label class="radio"><input type="radio" name="opp" value={o} checked={opp === o} onChange={() => { setOpp(o); if (o === "seek") setRated(true); }} />
              {t(o === "ai" ? "new.vs_ai" : o === "seek" ? "seek.option" : o === "user" ? "new.vs_user" : "new.vs_open")}</label>
          ))}
          {opp === "ai" && (
            <div class="seg" role="radiogroup" aria-label={t("new.ai_level")}>
              {([1, 2, 3] as const).map((n) => (
                <label class={`seg-b ${level === n ? "on" : ""}`}><input type="radio" name="level" class="sr-only" checked={level === n} onChange={() => setLevel(n)} />{AI_LEVELS[n - 1]}</label>
              ))}
            </div>
          )}
          {opp === "user" && <Field id="opp-username" label={t("new.username")} value={username} onInput={setUsername} required autocomplete="off"
            errors={fields.to || fields.username || fields.opponents} />}
          {(opp === "user" || opp === "open") && n > 2 && <p class="muted small" id="multi-invite">{t("challenge.multi_note")}</p>}
        </fieldset>
        <fieldset>
          <legend>{t("new.kind")}</legend>
          {(["claim", "claim2", "claim-mix", "inheritors"] as const).map((k) => (
            <div class="kind-row">
              <label class="radio"><input type="radio" name="kind" value={k} checked={kind === k} onChange={() => { setKind(k); if (k === "claim-mix" && mixProblem(mix, seats)) setMix(defaultMix(seats)); }} />{t(("game." + k) as Key)}</label>
              {/* beside the row, not inside its label: a tap on the game's name chooses it (issue 33) */}
              <a class="tap-link small" href={`#/rules/${k}`} aria-label={t("rules.full", { game: t(("game." + k) as Key) })}>{t("nav.rules")}</a>
            </div>
          ))}
        </fieldset>
        {multi && (
          <fieldset>
            <legend>{t("new.players")}</legend>
            <div class="seg" role="radiogroup" aria-label={t("new.players")}>
              {[2, 3, 4].map((k) => (
                <label class={`seg-b ${seats === k ? "on" : ""}`}><input type="radio" name="seats" class="sr-only" checked={seats === k} onChange={() => { setSeats(k); if (mixProblem(mix, k)) setMix(defaultMix(k)); }} id={`seats-${k}`} />{t("new.players_n", { n: k })}</label>
              ))}
            </div>
            {kind === "inheritors" ? <p class="muted small">{inhTranslate(state.lang, "inh.new.help")} {inhTranslate(state.lang, "inh.provisional_note")}</p>
              : n > 2 && <p class="muted small">{t("new.multi_seats")}</p>}
            {kind === "claim-mix" && n > 2 && <RulingsNotice />}
          </fieldset>
        )}
        {kind === "claim-mix" && (
          <fieldset aria-describedby="mix-help">
            <legend>{t("new.factions")}</legend>
            <p id="mix-help" class="muted">{t(n > 2 ? "new.factions_help_multi" : "new.factions_help")}</p>
            <p class="lbl">{t("new.pair")}</p>
            <div class="chips">
              {PAIRS.map((p, i) => (
                <label class={`chip ${pairIdx === i ? "on" : ""}`}><input type="radio" class="sr-only" name="pair" checked={pairIdx === i} onChange={() => choosePair(i)} />
                  <Glyph faction={p[0]} /><Glyph faction={p[1]} /> {factionTitle(p[0], state.lang)} + {factionTitle(p[1], state.lang)}</label>
              ))}
            </div>
            <p class="lbl">{t(n > 2 ? "new.singles_multi" : "new.singles")}</p>
            <div class="chips">
              {SINGLES.map((f) => (
                <label class={`chip ${mix.includes(f) ? "on" : ""}`}><input type="checkbox" class="sr-only" checked={mix.includes(f)} onChange={() => toggleSingle(f)} />
                  <Glyph faction={f} /> {factionTitle(f, state.lang)}</label>
              ))}
            </div>
            {problem && <p class="field-err" role="status">{t(problem === "pair" ? "new.pair_problem" : n > 2 ? "new.singles_problem_multi" : "new.singles_problem")}</p>}
          </fieldset>
        )}
        <fieldset>
          <legend>{t("new.time")}</legend>
          <div class="seg wrap">
            {choices.map((c) => (
              <label class={`seg-b ${choice.id === c.id ? "on" : ""}`}><input type="radio" class="sr-only" name="days" id={`tc-${c.id}`} checked={choice.id === c.id} onChange={() => setTcId(c.id)} />
                {c.bank ? describeTimeControl(choiceView(c), t, state.lang) : !c.days ? t("new.unlimited") : t("new.days", { n: c.days })}</label>
            ))}
          </div>
          {fields.time_control && <p class="field-err">{fields.time_control.join(" ")}</p>}
          {opp !== "ai" && <label class="radio"><input type="checkbox" id="rated" checked={rated && timed} disabled={!timed} onChange={(e) => setRated((e.target as HTMLInputElement).checked)} />{t("new.rated")}</label>}
          {fields.rated && <p class="field-err">{fields.rated.join(" ")}</p>}
          <label class="radio"><input type="checkbox" id="watchable" checked={watchable} onChange={(e) => setWatchChoice((e.target as HTMLInputElement).checked)} />{t("new.watchable")}</label>
          {fields.watchable && <p class="field-err">{fields.watchable.join(" ")}</p>}
        </fieldset>
        {opp === "seek" && (
          <fieldset>
            <legend>{t("seek.range")}</legend>
            <div class="seg wrap" role="radiogroup" aria-label={t("seek.range")}>
              {[null, 100, 200, 400].map((r) => (
                <label class={`seg-b ${range === r ? "on" : ""}`}><input type="radio" class="sr-only" name="range" checked={range === r} onChange={() => setRange(r)} />
                  {r == null ? t("seek.any") : `± ${r}`}</label>
              ))}
            </div>
            <p class="muted small">{t("seek.help")}</p>
          </fieldset>
        )}
        <FormError text={err} />
        <button class="btn primary wide" type="submit" disabled={busy || !!problem} id="start-game">{t(opp === "seek" ? "seek.post" : "new.start")}</button>
        {opp === "seek" && <button class="btn wide" type="button" disabled={busy || !!problem} id="play-now" onClick={() => seek(true)}>{t("seek.quick")}</button>}
      </form>
      <Lobby />
    </main>
  );
}

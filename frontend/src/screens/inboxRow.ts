// The muted details of an inbox row (Inbox.tsx), pure so that every language can be checked: each is said once.
import { describeTimeControl, type TimeControlView } from "../corr";
import type { Lang, Translate } from "../i18n";

export interface RowFacts {
  status: string;
  deadline: string | null;
  timeControl: TimeControlView | null | undefined;
  /** "in 2 days": the deadline as the row says it (relTime), when there is one. */
  dueIn: string | null;
  /** "3 hours ago": when the game began (active games), when known. */
  beganAgo: string | null;
}

/** When the move is due, the time control, when the game began: in this order, empty ones left out, none twice.
 *  A game without a deadline says "no time limit" only when its time control is not shown: an unlimited game's
 *  time control already says it ("ohne Zeitlimit · Ohne Zeitlimit" in German before, issue 33). */
export interface RowDetail { kind: "due" | "terms" | "began"; text: string }

export function rowDetails(f: RowFacts, tr: Translate, lang: Lang): RowDetail[] {
  const live = f.status === "active" || f.status === "open";
  const terms = f.timeControl && live ? describeTimeControl(f.timeControl, tr, lang) : "";
  let due = "";
  if (f.status === "active") due = f.deadline && f.dueIn ? tr("inbox.due", { when: f.dueIn }) : terms ? "" : tr("inbox.no_deadline");
  const began = f.status === "active" && f.beganAgo ? tr("inbox.started", { when: f.beganAgo }) : "";
  const out: RowDetail[] = [];
  const parts: RowDetail[] = [{ kind: "due", text: due }, { kind: "terms", text: terms }, { kind: "began", text: began }];
  for (const part of parts) {
    const same = (p: RowDetail) => p.text.toLocaleLowerCase(lang) === part.text.toLocaleLowerCase(lang);
    if (part.text && !out.some(same)) out.push(part);
  }
  return out;
}

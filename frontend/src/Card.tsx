// A card drawn with CSS and a small inline SVG glyph per faction (no image downloads).
import type { JSX } from "preact";
import { cardName, FACTION_COLOR, parseCard, shortName, type Faction } from "./cards";
import { state } from "./store";

const GLYPH: Record<Faction, string> = {
  goblin: "M2 7l6 3 4-5 4 5 6-3-4 9-6 5-6-5z",
  knight: "M12 2l8 3v6c0 5-4 9-8 11-4-2-8-6-8-11V5z",
  undead: "M12 3a8 8 0 00-8 8v4h3v5h10v-5h3v-4a8 8 0 00-8-8zM8.5 10a2 2 0 110 4 2 2 0 010-4zm7 0a2 2 0 110 4 2 2 0 010-4z",
  dwarf: "M3 4h14v7H3zM8.5 11h3v11h-3zM17 5l4 2v2l-4 2z",
  doppelganger: "M12 2a10 10 0 100 20 10 10 0 000-20zm0 2v16a8 8 0 010-16z",
  gnome: "M12 2l7 16H5zM3 18h18v3H3z",
  giant: "M1 21L9 5l4 8 3-5 7 13z",
  dragon: "M12 2c3 5 7 6 7 12a7 7 0 01-14 0c0-3 2-5 3-6 0 3 1 4 2 4 0-4 1-7 2-10z",
  troll: "M15 2c4 0 6 3 4 7l-8 13-3-2 5-12c-2-3-1-6 2-6z",
  seer: "M1 12c5-8 17-8 22 0-5 8-17 8-22 0zm11-4a4 4 0 100 8 4 4 0 000-8z",
};

export function Glyph({ faction, size = 18 }: { faction: Faction; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false" fill-rule="evenodd">
      <path d={GLYPH[faction]} fill="currentColor" />
    </svg>
  );
}

interface Props {
  id: string;
  size?: "s" | "m" | "l" | "h";
  onClick?: (e: JSX.TargetedMouseEvent<HTMLButtonElement>) => void;
  dim?: boolean;
  selected?: boolean;
  label?: string;
  class?: string;
  style?: JSX.CSSProperties;
}

/** A card: its value (6 and 9 underlined), its faction's shape, and (except the small size) the faction's
 *  name; the full name is the accessible name. */
export function CardView({ id, size = "m", onClick, dim, selected, label, class: cls = "", style }: Props) {
  const c = parseCard(id);
  const name = label ?? cardName(id, state.lang);
  const classes = `card card-${size} ${dim ? "dim" : ""} ${selected ? "sel" : ""} ${cls}`;
  const st = { "--fc": FACTION_COLOR[c.faction], ...(style || {}) } as JSX.CSSProperties;
  const u = c.value === 6 || c.value === 9 ? " u" : "";
  const body = (
    <>
      <span class={`cv${u}`} aria-hidden="true">{c.value}</span>
      <Glyph faction={c.faction} size={size === "s" ? 13 : size === "h" ? 20 : 22} />
      {size !== "s" && <span class="cn" aria-hidden="true">{shortName(c.faction, state.lang)}</span>}
    </>
  );
  if (onClick) {
    return (
      <button type="button" class={classes} style={st} aria-pressed={selected ? "true" : "false"}
        aria-disabled={dim ? "true" : undefined} data-card={id} data-name={name} onClick={onClick}>
        {body}<span class="sr-only">{name}</span>
      </button>
    );
  }
  return <span class={classes} style={st} role="img" aria-label={name} data-card={id}>{body}</span>;
}

export function CardBack({ size = "m", label }: { size?: "s" | "m" | "l" | "h"; label?: string }) {
  return <span class={`card card-${size} back`} role={label ? "img" : undefined} aria-label={label} aria-hidden={label ? undefined : "true"} />;
}

// Hash routes (Django serves the shell only at "/"): #/, #/new, #/game/7, #/settings, #/rules/claim, #/join/CODE,
// #/challenge/ID, #/authorize?client_id=… (the OAuth consent screen; its query is read by screens/Authorize.tsx).
import { useEffect, useState } from "preact/hooks";

export function parseRoute(hash: string): { name: string; arg: string | null } {
  const path = hash.replace(/^#/, "") || "/";
  const m = path.match(/^\/([a-z]+)(?:\/([^/?]+))?/);
  if (!m) return { name: "home", arg: null };
  return { name: m[1], arg: m[2] ? decodeURIComponent(m[2]) : null };
}

export function navigate(path: string): void {
  location.hash = "#" + path;
}

export function useRoute() {
  const [r, setR] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => { setR(parseRoute(location.hash)); window.scrollTo(0, 0); };
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return r;
}

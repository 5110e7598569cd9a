// A keyset-paged list as the screens hold it (the tournaments', the leagues', friends, a player's games): the rows
// read so far, the next cursor, whether the first page came, busy, the error in words; `load(null)` reads the first
// page again, `load(next)` appends the one after (a row already held is not shown twice).
import { useEffect, useState } from "preact/hooks";
import { appendPage } from "./social";
import { errorText } from "./store";

export type Page<T> = { results: T[]; next: number | null };

export function usePaged<T>(fetchPage: (cursor: number | null) => Promise<Page<T>>, key: unknown, rowKey: (row: T) => string | number) {
  const [rows, setRows] = useState<T[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);

  async function load(cursor: number | null) {
    setBusy(true);
    try {
      const page = await fetchPage(cursor);
      setRows((before) => (cursor == null ? page.results : appendPage(before, page.results, rowKey)));
      setNext(page.next);
      setErr(null);
    } catch (e) { setErr(errorText(e)); }
    setBusy(false);
    setLoaded(true);
  }
  useEffect(() => { setRows([]); setNext(null); setLoaded(false); void load(null); }, [key]);
  return { rows, next, loaded, busy, err, load };
}

export type Paged<T> = ReturnType<typeof usePaged<T>>;

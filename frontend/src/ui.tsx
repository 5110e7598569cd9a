// Small shared UI pieces: form fields with the API's per-field errors, relative times, dialogs.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { relativeTime } from "./i18n/durations";
import { state, t } from "./store";

export function Field(props: {
  id: string; label: string; value: string; onInput: (v: string) => void; type?: string;
  errors?: string[]; autocomplete?: string; required?: boolean; list?: string; inputMode?: string;
}) {
  const err = props.errors && props.errors.length ? props.errors : null;
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} name={props.id} type={props.type || "text"} value={props.value} required={props.required}
        autocomplete={props.autocomplete} list={props.list} inputMode={props.inputMode as never}
        aria-invalid={err ? "true" : undefined} aria-describedby={err ? props.id + "-err" : undefined}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)} />
      {err && <p class="field-err" id={props.id + "-err"}>{err.join(" ")}</p>}
    </div>
  );
}

export function FormError({ text }: { text: string | null }) {
  return text ? <p class="form-err" role="alert">{text}</p> : null;
}

/** "in 2 days", "3 hours ago", "za 2 dny" — coarse, for correspondence deadlines, in the current language. */
export function relTime(iso: string | null, now = Date.now()): string {
  return relativeTime(iso, state.lang, now, t("time.just_now"));
}

/**
 * A modal dialog using <dialog>: Escape closes it (when it has ``onClose``), Tab and Shift+Tab cycle
 * inside it, focus moves into it on open (``initial``: a selector, else the first control) and goes back
 * to where it was when it closes (if that element is still there; otherwise the screen places it).
 */
export function Dialog(props: {
  title: string; onClose?: () => void; children: ComponentChildren; id?: string; initial?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    const before = document.activeElement as HTMLElement | null;
    if (d && !d.open) {
      try { d.showModal(); } catch { d.setAttribute("open", ""); }
      const first = (props.initial && d.querySelector<HTMLElement>(props.initial)) || focusables(d)[0];
      first?.focus();
    }
    return () => {
      if (d?.open) d.close();
      if (before && before !== document.body && before.isConnected) before.focus();
    };
  }, []);
  function onKeyDown(e: KeyboardEvent) {
    if (e.key !== "Tab" || !ref.current) return;
    const items = focusables(ref.current);
    if (!items.length) return;
    const first = items[0], last = items[items.length - 1];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !ref.current.contains(at))) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && (at === last || !ref.current.contains(at))) { e.preventDefault(); first.focus(); }
  }
  return (
    <dialog ref={ref} class="dlg" aria-labelledby={(props.id || "dlg") + "-t"} id={props.id ? props.id + "-dlg" : undefined}
      onKeyDown={onKeyDown} onCancel={(e) => { e.preventDefault(); props.onClose?.(); }}>
      <h2 id={(props.id || "dlg") + "-t"}>{props.title}</h2>
      {props.children}
      {props.onClose && <button type="button" class="btn ghost dlg-x" onClick={props.onClose}>{t("common.close")}</button>}
    </dialog>
  );
}

function focusables(root: HTMLElement): HTMLElement[] {
  const sel = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
  return [...root.querySelectorAll<HTMLElement>(sel)].filter((el) => el.offsetParent !== null || el === document.activeElement);
}

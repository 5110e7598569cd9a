// Rendering Preact screens in happy-dom (the test files that use this set `@vitest-environment happy-dom`):
// mount into a fresh container, let mocked API answers and effects settle, tap, unmount.
import { render, type ComponentChild } from "preact";
import { act } from "preact/test-utils";

/** Renders `node` into a fresh container attached to the document and lets its effects settle. */
export async function mount(node: ComponentChild): Promise<HTMLElement> {
  const box = document.createElement("div");
  document.body.appendChild(box);
  await act(() => { render(node, box); });
  await settle();
  return box;
}

/** Lets pending promises (mocked API answers) resolve and Preact re-render, a few rounds. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await act(async () => { await new Promise((r) => setTimeout(r, 0)); });
}

/** A user's tap on `el`, then everything it started. */
export async function tap(el: Element | null): Promise<void> {
  if (!el) throw new Error("nothing to tap");
  await act(() => { (el as HTMLElement).click(); });
  await settle();
}

/** Removes what `mount` rendered (its effects' clean-ups run). */
export async function unmount(box: HTMLElement): Promise<void> {
  await act(() => { render(null, box); });
  box.remove();
}

/** The elements matching `selector` in `root`, as an array. */
export const all = (root: ParentNode, selector: string): Element[] => Array.from(root.querySelectorAll(selector));

// The screens' tests' API: `net.routes` answers "METHOD /path" with a value (a copy each time) or a function of the
// request body; anything else is a 404. A test file mocks ../src/api with it:
//   vi.mock("../src/api", async (importOriginal) => (await import("./net")).mockedApi(await importOriginal()));
import { vi } from "vitest";
import { settle } from "./dom";

export const net = (() => {
  const routes = new Map<string, unknown>();
  return {
    routes,
    api: vi.fn(async (method: string, path: string, body?: unknown) => {
      const key = `${method} ${path}`;
      if (!routes.has(key)) throw Object.assign(new Error(`no route ${key}`), { status: 404 });
      const answer = routes.get(key);
      return typeof answer === "function" ? answer(body) : structuredClone(answer);
    }),
  };
})();

/** The real module with its `api` (and the cached reads) answered by `net`. */
export function mockedApi<M extends object>(original: M): M {
  return { ...original, api: net.api, getCached: async (path: string) => ({ data: await net.api("GET", path), offline: false }) };
}

/** A user's typing into the input (or choice in the select) `#id` of `box`. */
export async function fill(box: HTMLElement, id: string, value: string): Promise<void> {
  const el = box.querySelector<HTMLInputElement | HTMLSelectElement>(`#${id}`)!;
  el.value = value;
  el.dispatchEvent(new Event(el.tagName === "SELECT" ? "change" : "input", { bubbles: true }));
  await settle();
}

/** A route's answer: the server's refusal (an ApiError of that status, code, message and fields). */
export const refuse = (status: number, code: string, message: string, fields?: Record<string, string[]>) => async () => {
  const { ApiError } = await import("../src/api");
  throw new ApiError(status, { code, message, fields });
};

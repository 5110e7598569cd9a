import { render } from "preact";
import { App } from "./App";
import { state } from "./store";
import "./style.css";

document.documentElement.lang = state.lang;
render(<App />, document.getElementById("app")!);

// The service worker must be served at the site root to control "/" (see README: /sw.js route).
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* route not available: online-only */ });
  });
}

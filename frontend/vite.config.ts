import { defineConfig } from "vitest/config";
import preact from "@preact/preset-vite";

// Django serves dist/index.html at "/" and dist/* under STATIC_URL=/static/.
export default defineConfig({
  base: "/static/",
  plugins: [preact()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2020",
    assetsDir: "assets",
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});

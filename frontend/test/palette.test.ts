import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FACTION_COLOR } from "../src/cards";

// Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, applied to linear RGB.
const CVD: Record<string, number[][]> = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};

function linear(hex: string): number[] {
  return [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
}

function lab([r, g, b]: number[]): number[] {
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

function seen(hex: string, m: number[][]): number[] {
  const c = linear(hex);
  return lab(m.map((row) => Math.min(1, Math.max(0, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]))));
}

describe("faction palette", () => {
  it("carries white text at WCAG AA (>= 4.5:1) on every faction", () => {
    for (const hex of Object.values(FACTION_COLOR)) {
      const [r, g, b] = linear(hex);
      const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      expect(1.05 / (luminance + 0.05), hex).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("keeps every two factions apart in normal vision and under protanopia, deuteranopia, tritanopia", () => {
    const names = Object.keys(FACTION_COLOR) as (keyof typeof FACTION_COLOR)[];
    for (const [vision, m] of Object.entries(CVD)) {
      for (const [i, a] of names.entries()) {
        for (const b of names.slice(i + 1)) {
          const [p, q] = [seen(FACTION_COLOR[a], m), seen(FACTION_COLOR[b], m)];
          const distance = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
          expect(distance, `${a} vs ${b} (${vision})`).toBeGreaterThanOrEqual(12);
        }
      }
    }
  });

  it("is the same in style.css as in cards.ts", () => {
    const css = readFileSync(new URL("../src/style.css", import.meta.url), "utf8");
    for (const [faction, hex] of Object.entries(FACTION_COLOR)) {
      expect(css).toContain(`--f-${faction}: ${hex};`);
    }
  });
});

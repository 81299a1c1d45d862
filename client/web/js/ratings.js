// Skill ratings (issue 32) in words: a pool's name, a rating with its "?" while provisional.

import { h } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { gridLabel } from "./labels.js";

const GRIDS = ["classic", "scandinavian", "yacht", "generala"];

/** The families a rating is kept for, each with its words (the ratings screen's choices). */
export function families() {
  return [
    ...[1, 2, 3, 4, 5, 6, 7].map((n) => [`yamb-${n}`, t("Yamb, preset {number}", { number: n })]),
    ...GRIDS.map((id) => [id, gridLabel(id)]),
  ];
}

/** "Yamb, preset 3 · 2 vs 2" for the pool `pairs/yamb-3`. */
export function poolLabel(pool) {
  const [format, family] = pool.split("/");
  const named = families().find(([id]) => id === family);
  const words = named ? named[1] : family;
  return format === "pairs" ? t("{family} · 2 vs 2", { family: words }) : words;
}

/** A rating as shown: 1658? while provisional, with its deviation in the title (after the
 * pool's name when `pool` is given: the lobby's list). */
export function ratingBadge(view, pool = null) {
  // Ratings are written without grouping, as chess players write them (1658, not 1,658).
  const shown = `${formatNumber(view.rating, { useGrouping: false })}${view.provisional ? "?" : ""}`;
  const deviation = formatNumber(view.deviation);
  const title = view.provisional
    ? tn("Provisional: ± {deviation} after {count} game", "Provisional: ± {deviation} after {count} games", view.games, { deviation })
    : tn("± {deviation} after {count} game", "± {deviation} after {count} games", view.games, { deviation });
  return h("span", { class: view.provisional ? "rating provisional" : "rating",
    title: pool ? `${pool} · ${title}` : title }, shown);
}

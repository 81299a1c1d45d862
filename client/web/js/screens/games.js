// #/games: the player's own past games, newest first (GET /me/games, a page at a time): when,
// the grid, who else sat there and their totals, the verdict in words, each opening its replay.

import { compose, fill, h } from "../dom.js";
import { formatDate, formatNumber, t } from "../i18n.js";
import { gridLabel, levelLabel } from "../labels.js";

const verdicts = () => ({
  win: t("Won"), loss: t("Lost"), tie: t("Tied"), cancelled: t("Cancelled (not counted)"), alone: t("Solo"),
});

export const screen = {
  id: "games",
  path: "/games",
  get title() { return t("My games"); },
  nav: true,
  async show(root, _params, ctx) {
    const list = h("ul", { class: "past-games", id: "past-games" });
    const error = h("p", { class: "error", id: "games-error", role: "alert" });
    const more = h("button", { type: "button", id: "games-more", hidden: true }, t("Older games"));
    fill(root, h("h2", {}, t("My games")), list, more, error);
    const load = async (before) => {
      error.textContent = "";
      more.disabled = true;
      try {
        const page = await ctx.http("GET", `/me/games${before ? `?before=${encodeURIComponent(before)}` : ""}`);
        list.append(...page.games.map(entry));
        if (!list.children.length) list.append(h("li", { class: "hint", id: "no-past-games" }, t("No game played to its end yet.")));
        more.hidden = !page.nextBefore;
        more.onclick = () => load(page.nextBefore);
      } catch (problem) {
        error.textContent = problem.message;
      } finally {
        more.disabled = false;
      }
    };
    await load(null);
  },
};

function entry(game) {
  const others = game.others.map((seat) => {
    const name = seat.bot ? t("bot ({level})", { level: levelLabel(seat.bot) }) : seat.nickname || t("a deleted player");
    const shown = seat.nickname && !seat.bot ? h("a", { href: `#/players/${encodeURIComponent(seat.nickname)}` }, name) : name;
    return [shown, ` ${formatNumber(seat.total)}`];
  });
  const kind = [gridLabel(game.grid), game.preset ? t("preset {number}", { number: game.preset }) : null,
    game.ranked ? t("ranked") : null].filter(Boolean).join(" · ");
  return h("li", { class: `past-game ${game.verdict}`, dataset: { game: game.gameId } },
    h("a", { href: `#/replay/${game.gameId}`, class: "past-game-when" }, formatDate(game.at, "short")),
    " · ", h("strong", {}, verdicts()[game.verdict] || game.verdict),
    ` ${formatNumber(game.mine)}`,
    others.length ? [" ", compose(t("against {players}"), { players: others.flatMap((part, index) => (index ? [", ", ...part] : part)) })] : null,
    h("div", { class: "hint" }, kind));
}

// #/slow (product G4): the player's running slow games, which go on for days beside a regular
// one: for each, its players, whether the player has a move to make (their own sheet's turns
// played, at their own pace) and when its deadline passes; each opens its game. The list is
// `sync`'s `slowGames`, each game synced by its id (which also gives its seat this page).

import { fill, h } from "../dom.js";
import { formatDate, formatNumber, formatRelative, t, tn } from "../i18n.js";
import { gridLabel, statusLabel } from "../labels.js";

async function load(ctx) {
  // sync without a gameId answers the regular game and names the slow ones.
  await ctx.act("sync", {}, "slow-error", { open: false });
  const games = [];
  for (const gameId of ctx.state.slowGames || []) {
    const frame = await ctx.act("sync", { gameId }, "slow-error", { open: false });
    const game = frame?.game || ctx.state.games.get(gameId);
    if (game && game.status !== "deleted") games.push(game);
  }
  return games;
}

function row(game, ctx) {
  const me = ctx.state.me;
  const own = game.seats.find((seat) => seat.playerId === me);
  const names = game.seats.map((seat) => seat.nickname || t("a player"));
  const total = game.turnsPerSheet;
  const played = own ? own.turnsPlayed : 0;
  let move;
  if (game.status === "waiting") move = t("Waiting for players");
  else if (game.status !== "running") move = statusLabel(game.status);
  else if (own && !own.left && total && played < total) move = tn("Your move: {played} of {count} turn played", "Your move: {played} of {count} turns played", total, { played: formatNumber(played) });
  else move = t("Your sheet is full: waiting for the others");
  const yours = game.status === "running" && own && !own.left && total && played < total;
  const others = game.seats.filter((seat) => seat.playerId !== me).map((seat) =>
    t("{name}: {played} of {total}", { name: seat.nickname || t("a player"), played: formatNumber(seat.turnsPlayed), total: formatNumber(total || 0) }));
  return h("li", { class: "slow-game", dataset: { game: game.gameId } },
    h("a", { href: `#/game/${encodeURIComponent(game.gameId)}`, class: "slow-open" },
      t("{grid} · {players}", { grid: gridLabel(game.settings.grid),
        players: names.length ? names.reduce((first, second) => t("{first} vs {second}", { first, second })) : "" })),
    h("span", { class: yours ? "your-turn" : "hint", dataset: { yours: String(Boolean(yours)) } }, move),
    game.status === "running" && total ? h("span", { class: "hint" }, others.join(" · ")) : null,
    game.slowDeadline ? h("span", { class: "deadline" },
      t("Ends {when} ({date})", { when: formatRelative(game.slowDeadline), date: formatDate(game.slowDeadline, "short") })) : null);
}

export const screen = {
  id: "slow",
  path: "/slow",
  get title() { return t("Slow games"); },
  nav: true,
  async show(root, params, ctx) {
    const error = h("p", { class: "error", id: "slow-error", role: "alert" });
    fill(root, h("section", { class: "panel" }, h("h2", {}, t("Your slow games")), h("p", { class: "hint" }, t("Loading…")), error));
    await ctx.connected();
    const games = await load(ctx);
    const running = games.filter((game) => game.status === "running" || game.status === "waiting");
    fill(root, h("section", { class: "panel" },
      h("h2", {}, t("Your slow games")),
      h("p", { class: "hint" }, t("Slow games go on for days, each player at their own pace, beside a regular game.")),
      running.length
        ? h("ul", { class: "slow-games", id: "slow-games" }, running.map((game) => row(game, ctx)))
        : h("p", { class: "hint", id: "no-slow-games" }, t("You play no slow game now. Create one in the lobby with Turns: Slow (days).")),
      error));
  },
};

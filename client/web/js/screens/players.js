// #/players (product S1): every player by nickname, found by the first letters of their name,
// with their flag and where they are (offline, free, in a game); the players you follow
// (online first) and those you blocked. Each row opens the player's page, where the actions on
// them are (S2). The favourites' presence is read again every 30 seconds while the tab shows.

import { tagBadge } from "../clubs.js";
import { countryName, flagOf } from "../countries.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";

const REFRESH_MS = 30_000;
let ticker = null;

const presenceLabel = (presence) => ({
  offline: t("Offline"),
  free: t("Online, free to play"),
  in_game: t("In a game"),
})[presence] || presence;

export const screen = {
  id: "players",
  path: "/players",
  get title() { return t("Players"); },
  nav: true,
  async show(root, params, ctx) {
    const kinds = [["all", t("Everyone")], ["favorites", t("Favourites")], ["blocked", t("Blocked")]];
    let kind = kinds.some(([id]) => id === params.query?.get("kind")) ? params.query.get("kind") : "all";
    const list = h("ul", { class: "players-list", id: "players-list", "aria-live": "polite" });
    const status = h("p", { class: "hint", id: "players-status", role: "status" });
    const more = h("button", { type: "button", id: "players-more", hidden: true }, t("More players"));
    const search = h("input", { id: "players-search", type: "search", autocomplete: "off", maxlength: "16",
      placeholder: t("First letters of a nickname"), "aria-label": t("Find a player") });
    const searchForm = h("form", { class: "players-search", role: "search", onsubmit: (event) => {
      event.preventDefault();
      load(true);
    } }, search, h("button", { type: "submit" }, t("Find")));
    const tabs = h("div", { class: "tabs", role: "tablist", "aria-label": t("Players") },
      kinds.map(([id, label]) => h("button", {
        type: "button", role: "tab", id: `players-tab-${id}`, "aria-selected": String(id === kind),
        onclick: () => {
          kind = id;
          for (const tab of tabs.querySelectorAll("[role=tab]")) {
            tab.setAttribute("aria-selected", String(tab.id === `players-tab-${id}`));
          }
          searchForm.hidden = kind !== "all";
          load(true);
        },
      }, label)));
    let cursor = null;
    let asked = 0;

    async function load(fresh) {
      const ask = ++asked;
      const query = new URLSearchParams({ kind });
      if (kind === "all" && search.value.trim()) query.set("prefix", search.value.trim());
      if (!fresh && cursor) query.set("cursor", cursor);
      more.disabled = true;
      try {
        const page = await ctx.http("GET", `/players?${query}`);
        if (ask !== asked) return; // a later question was asked meanwhile
        if (fresh) list.replaceChildren();
        list.append(...page.players.map(row));
        cursor = page.cursor;
        more.hidden = !cursor;
        status.textContent = list.children.length ? "" : emptyText(kind, search.value.trim());
      } catch (problem) {
        if (ask === asked) status.textContent = problem.message;
      } finally {
        more.disabled = false;
      }
    }

    more.addEventListener("click", () => load(false));
    fill(root, h("h2", {}, t("Players")), tabs, searchForm, status, list, more);
    await load(true);
    clearInterval(ticker);
    ticker = setInterval(() => {
      if (kind === "favorites" && !document.hidden) load(true);
    }, REFRESH_MS);
  },
  hide() {
    clearInterval(ticker);
    ticker = null;
  },
};

function emptyText(kind, prefix) {
  if (kind === "favorites") return t("You follow nobody yet: follow a player from their page.");
  if (kind === "blocked") return t("You have blocked nobody.");
  return prefix ? t("No player's nickname starts with {prefix}.", { prefix }) : t("No players yet.");
}

function row(player) {
  const flag = player.country
    ? h("span", { class: "flag", title: countryName(player.country) }, flagOf(player.country))
    : h("span", { class: "flag", title: t("Yamb world") }, "🎲");
  return h("li", { class: `player-row presence-${player.presence}`, dataset: { nickname: player.nickname, presence: player.presence } },
    h("span", { class: "presence-dot", "aria-hidden": "true" }),
    flag, " ",
    h("a", { href: `#/players/${encodeURIComponent(player.nickname)}` }, player.nickname),
    player.club ? [" ", tagBadge(player.club)] : null,
    player.favorite ? h("span", { class: "hint", title: t("You follow this player") }, " ★") : null,
    " · ", h("span", { class: "presence" }, presenceLabel(player.presence)),
    player.blocked ? [" · ", h("span", { class: "hint" }, t("blocked"))] : null);
}

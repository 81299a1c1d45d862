// #/players/<nickname>: a player's statistics and records (product R3-R4), their badges, the
// caller's head-to-head with them (each meeting opens its replay), and the actions on them (S2):
// following them as a favourite (their rows on the favourites' boards), blocking them (they can
// no longer message or invite you), a gift of tokens or premium (the shop, their name filled in).

import { apiUrl } from "../api.js";
import { tagBadge } from "../clubs.js";
import { countryName, flagOf } from "../countries.js";
import { recordKindLabel } from "../labels.js";
import { poolLabel, ratingBadge } from "../ratings.js";
import { reportButton } from "../report.js";
import { fill, h } from "../dom.js";
import { formatDate, formatNumber, t } from "../i18n.js";

const verdicts = () => ({ win: t("Won"), loss: t("Lost"), tie: t("Tied") });

export const screen = {
  id: "player",
  path: "/players/:nickname",
  get title() { return t("Player"); },
  nav: false,
  async show(root, { nickname }, ctx) {
    const name = encodeURIComponent(nickname);
    fill(root, h("h2", {}, nickname), h("p", { class: "hint" }, t("Loading…")));
    const [stats, badges, favorites, meetings, blocked] = await Promise.all([
      ctx.http("GET", `/players/${name}/statistics`).catch((problem) => problem),
      ctx.http("GET", `/players/${name}/badges`).catch(() => null),
      ctx.http("GET", "/me/favorites").catch(() => null),
      ctx.http("GET", `/players/${name}/head-to-head`).catch(() => null),
      ctx.http("GET", "/players?kind=blocked").catch(() => null),
    ]);
    if (stats instanceof Error) {
      fill(root, h("h2", {}, nickname), h("p", { class: "error", id: "player-error", role: "alert" }, stats.message));
      return;
    }
    document.title = `${stats.nickname} · Yamb`;
    // The page to share exists only while its player shows it (R5).
    const publicPage = stats.publicPage ? await apiUrl(`/pages/${encodeURIComponent(stats.nickname)}`) : null;
    fill(root,
      h("div", { class: "player-head" },
        h("h2", { id: "player-name" }, stats.nickname,
          stats.club ? [" ", h("a", { href: `#/clubs/${encodeURIComponent(stats.club.clubId)}`, id: "player-club" },
            tagBadge(stats.club))] : null,
          stats.country
          ? h("span", { class: "hint", id: "player-country", title: countryName(stats.country) }, ` · ${flagOf(stats.country)} ${countryName(stats.country)}`)
          : null),
        h("div", { class: "player-actions", id: "player-actions" },
          favorites ? followButton(stats.nickname, favorites, ctx) : null,
          h("a", { id: "player-message", class: "button", href: `#/chats/${encodeURIComponent(stats.nickname)}` },
            t("Message")),
          inviteButton(stats.nickname, ctx),
          blocked ? blockButton(stats.nickname, blocked, ctx) : null,
          h("a", { id: "player-gift", class: "button", href: `#/shop?gift=${encodeURIComponent(stats.nickname)}` },
            t("Give tokens or premium")),
          reportButton(ctx, { kind: "player", nickname: stats.nickname }, "player"))),
      stats.description ? h("p", { class: "player-description" }, stats.description) : null,
      stats.proudGame ? h("p", { id: "player-proud-game" }, h("a", { href: `#/replay/${encodeURIComponent(stats.proudGame)}` },
        t("The game {name} is proud of", { name: stats.nickname }))) : null,
      h("p", { class: "hint" }, t("Playing since {date}", { date: formatDate(stats.memberSince) }),
        publicPage ? [" · ", h("a", { id: "player-public-page", href: publicPage, target: "_blank", rel: "noopener" },
          t("Public page (a link to share)"))] : null),
      statistics(stats),
      ratingList(stats),
      skillList(stats),
      records(stats),
      badges ? badgeList(badges) : null,
      meetings ? headToHead(meetings, nickname, ctx) : null);
  },
};

/** A switch of the caller's on this player (following, blocking): PUT to turn it on, DELETE to
 * turn it off, at `path`; `label(on)` sets its words. */
function toggle(id, path, on, label, ctx) {
  const error = h("span", { class: "error", id: `${id}-error`, role: "alert" });
  const button = h("button", { type: "button", id, onclick: async () => {
    error.textContent = "";
    button.disabled = true;
    try {
      await ctx.http(on ? "DELETE" : "PUT", path);
      on = !on;
      draw();
    } catch (problem) {
      error.textContent = problem.message;
    } finally {
      button.disabled = false;
    }
  } });
  const draw = () => {
    label(button, on);
    button.setAttribute("aria-pressed", String(on));
  };
  draw();
  return h("span", { class: id }, button, error);
}

const same = (nickname) => (other) => other.nickname.toLowerCase() === nickname.toLowerCase();

function followButton(nickname, favorites, ctx) {
  return toggle("follow", `/me/favorites/${encodeURIComponent(nickname)}`, favorites.favorites.some(same(nickname)),
    (button, on) => { button.textContent = on ? t("Following ★") : t("Follow ☆"); }, ctx);
}

function blockButton(nickname, blocked, ctx) {
  return toggle("block", `/me/blocks/${encodeURIComponent(nickname)}`, blocked.players.some(same(nickname)),
    (button, on) => {
      button.textContent = on ? t("Unblock") : t("Block");
      button.title = on ? t("Let this player message and invite you again")
        : t("This player will no longer be able to message or invite you");
    }, ctx);
}

/** An invitation to the table the player sits at and waits with (S2); without one, the lobby
 * is where a table is opened first. */
function inviteButton(nickname, ctx) {
  const note = h("span", { class: "hint", id: "player-invite-note", role: "status" });
  const button = h("button", { type: "button", id: "player-invite", onclick: async () => {
    note.textContent = "";
    const synced = await ctx.act("sync", {}, "player-invite-error", { open: false });
    const game = synced?.game;
    const waiting = game && game.status === "waiting" && game.seats.some((s) => s.playerId === ctx.state.me);
    if (!waiting) {
      note.textContent = t("Open a table in the lobby first, then invite {nickname} to it.", { nickname });
      return;
    }
    const answer = await ctx.act("invite", { gameId: game.gameId, nickname }, "player-invite-error", { open: false });
    if (answer) note.textContent = t("Invitation sent to {nickname}.", { nickname: answer.invitation.to });
  } }, t("Invite to my table"));
  return h("span", { class: "invite" }, button, note, h("span", { class: "error", id: "player-invite-error", role: "alert" }));
}

function statistics(stats) {
  const rate = stats.winRate === null || stats.winRate === undefined ? "—"
    : formatNumber(stats.winRate, { style: "percent", maximumFractionDigits: 0 });
  const facts = [
    [t("Games"), formatNumber(stats.games)], [t("Wins"), formatNumber(stats.wins)],
    [t("Losses"), formatNumber(stats.losses)], [t("Win rate"), rate],
    [t("Abandoned"), formatNumber(stats.abandoned)],
    [t("Main board"), stats.mainBoardScore === null || stats.mainBoardScore === undefined ? "—"
      : t("{score} points, place {place}", { score: formatNumber(stats.mainBoardScore), place: formatNumber(stats.mainBoardPlace) })],
    [t("Medals"), t("{gold} gold, {silver} silver, {bronze} bronze", stats.medals)],
  ];
  return h("section", { class: "panel", id: "player-statistics" }, h("h3", {}, t("Statistics")),
    h("dl", { class: "facts" }, facts.map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)])));
}

function records(stats) {
  const entries = Object.entries(stats.records || {});
  if (!entries.length) return null;
  return h("section", { class: "panel", id: "player-records" }, h("h3", {}, t("Records")),
    h("ul", {}, entries.map(([kind, record]) => h("li", {},
      h("strong", {}, formatNumber(record.score)), ` · ${recordKindLabel(kind)} · `,
      h("a", { href: `#/replay/${record.gameId}` }, formatDate(record.at))))));
}

function ratingList(stats) {
  if (!stats.ratings?.length) return null;
  return h("section", { class: "panel", id: "player-ratings" }, h("h3", {}, t("Skill ratings")),
    h("ul", {}, stats.ratings.map((rating) => h("li", { dataset: { pool: rating.pool } },
      h("a", { href: `#/ratings?${ratingQuery(rating.pool)}` }, poolLabel(rating.pool)), " · ", ratingBadge(rating)))));
}

/** Luck told apart from skill (issue 32): per kind of game where it was measured, what the
 * player's choices lost and what the dice gave or took, per game on average. */
function skillList(stats) {
  if (!stats.skill?.length) return null;
  const decimals = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  const signed = (value) => `${value > 0 ? "+" : ""}${formatNumber(value, decimals)}`;
  return h("section", { class: "panel", id: "player-skill" }, h("h3", {}, t("Skill and luck")),
    h("p", { class: "hint" }, t("Per game on average: the points the player’s own choices lost, against the optimal player on the Yahtzee-family grids and the hard bot’s choices on Yamb, and what the dice gave or took.")),
    h("table", { class: "board-table" },
      h("thead", {}, h("tr", {}, [t("Game"), t("Games"), t("Lost to choices"), t("Dice luck")]
        .map((head) => h("th", { scope: "col" }, head)))),
      h("tbody", {}, stats.skill.map((row) => h("tr", { dataset: { kind: row.kind, against: row.against } },
        h("th", { scope: "row" }, recordKindLabel(row.kind)),
        h("td", {}, formatNumber(row.games)),
        h("td", { class: "regret" }, `−${formatNumber(row.regret, decimals)}`),
        h("td", { class: "luck" }, signed(row.luck)))))));
}

function ratingQuery(pool) {
  const [format, family] = pool.split("/");
  return new URLSearchParams(format === "pairs" ? { family, format } : { family }).toString();
}

function badgeList(view) {
  const items = view.badges.map((badge) => h("li", { class: "badge-item" }, `${badge.title} · ${badge.levelName}`));
  if (view.pioneer) items.unshift(h("li", { class: "badge-item" }, t("{title} no. {number}", view.pioneer)));
  if (!items.length) return null;
  return h("section", { class: "panel", id: "player-badges" }, h("h3", {}, t("Badges")), h("ul", { class: "badge-list" }, items));
}

function headToHead(view, nickname, ctx) {
  const list = h("ul", { class: "meetings", id: "meetings" });
  const more = h("button", { type: "button", id: "meetings-more", hidden: !view.nextBefore }, t("Older games"));
  const add = (page) => {
    list.append(...page.meetings.map((meeting) => h("li", { class: `meeting ${meeting.verdict}`, dataset: { game: meeting.gameId } },
      h("a", { href: `#/replay/${meeting.gameId}` }, formatDate(meeting.at, "short")), " · ",
      verdicts()[meeting.verdict] || meeting.verdict, ` ${formatNumber(meeting.mine)} – ${formatNumber(meeting.theirs)}`,
      meeting.ranked ? h("span", { class: "badge" }, t("ranked")) : null)));
    more.hidden = !page.nextBefore;
    more.onclick = async () => {
      more.disabled = true;
      try {
        add(await ctx.http("GET", `/players/${encodeURIComponent(nickname)}/head-to-head?before=${encodeURIComponent(page.nextBefore)}`));
      } finally {
        more.disabled = false;
      }
    };
  };
  add(view);
  return h("section", { class: "panel", id: "head-to-head" },
    h("h3", {}, t("You against {name}", { name: nickname })),
    h("p", { id: "head-to-head-score" }, t("{wins} won, {losses} lost, {ties} tied", view)),
    view.meetings.length ? list : h("p", { class: "hint" }, t("You have not played each other yet.")), more);
}

// #/clubs (product C1, C2): the player's clubs in their order (the first is the main club, its
// tag beside their nickname; another is made main with one click), the clubs' invitations that
// waited for them (yes joins), the clubs found by the first letters of their name, and the form
// that founds one.

import { actionButton, actionForm, clubAvatar, countWaiting, entryLabel, errorSlot, looksFields, roleLabel, tagBadge } from "../clubs.js";
import { fill, h } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";

export const screen = {
  id: "clubs",
  path: "/clubs",
  get title() { return t("Clubs"); },
  nav: true,
  async show(root, params, ctx) {
    const mine = h("section", { class: "panel", id: "clubs-mine", "aria-labelledby": "clubs-mine-title" });
    const invitations = h("section", { class: "panel", id: "clubs-invitations", hidden: true,
      "aria-labelledby": "clubs-invitations-title" });
    const found = h("section", { class: "panel", id: "clubs-found", "aria-labelledby": "clubs-found-title" });
    const finder = h("section", { class: "panel", id: "clubs-finder", "aria-labelledby": "clubs-finder-title" });
    const board = h("section", { class: "panel", id: "clubs-board", "aria-labelledby": "clubs-board-title" });
    fill(root, h("h2", {}, t("Clubs")), invitations, mine, board, finder, found);

    async function refresh() {
      const held = await ctx.http("GET", "/me/clubs");
      countWaiting(held);
      drawMine(mine, held, ctx, refresh);
      drawInvitations(invitations, held, ctx, refresh);
      drawFound(found, held, ctx);
    }
    drawFinder(finder, ctx);
    drawBoard(board, ctx);
    await refresh();
  },
};

function drawMine(section, held, ctx, refresh) {
  const error = errorSlot("clubs-mine-error");
  const ids = held.clubs.map((club) => club.clubId);
  const rows = held.clubs.map((club, index) => h("li", { class: `club-row${club.dormant ? " dormant" : ""}`,
    dataset: { club: club.clubId, dormant: String(club.dormant) } },
    tagBadge(club.tag), " ",
    h("a", { href: `#/clubs/${encodeURIComponent(club.clubId)}` }, club.name),
    " · ", h("span", { class: "hint" }, roleLabel(club.role)),
    club.dormant ? [" · ", h("span", { class: "hint", title: t("Premium keeps more than one club live.") },
      t("dormant: your points do not count here"))] : null,
    club.unread ? h("span", { class: "badge unread", title: t("Announcements not read yet") }, String(club.unread)) : null,
    index === 0
      ? h("span", { class: "badge", id: "clubs-main" }, t("Main club"))
      : actionButton(t("Make it my main club"), { class: "link-button", id: `clubs-main-${club.clubId}` }, error,
        async () => {
          await ctx.http("PUT", "/me/clubs/order", { clubIds: [club.clubId, ...ids.filter((id) => id !== club.clubId)] });
          await refresh();
        })));
  fill(section,
    h("h3", { id: "clubs-mine-title" }, t("Your clubs")),
    rows.length ? h("ul", { class: "clubs-list", id: "clubs-mine-list" }, rows)
      : h("p", { class: "hint", id: "clubs-mine-empty" }, t("You are in no club yet: join one below, or found your own.")),
    h("p", { class: "hint" }, tn("You may be in {count} club at most; the first is your main club, its tag shows beside your nickname.",
      "You may be in {count} clubs at most; the first is your main club, its tag shows beside your nickname.",
      held.allowed, { count: formatNumber(held.allowed) })),
    error);
}

function drawInvitations(section, held, ctx, refresh) {
  section.hidden = held.invitations.length === 0;
  const error = errorSlot("clubs-invitations-error");
  const answer = (club, accept) => async () => {
    const after = await ctx.http("POST", `/me/clubs/invitations/${encodeURIComponent(club.clubId)}`, { accept });
    countWaiting(after);
    if (accept) location.hash = `#/clubs/${encodeURIComponent(club.clubId)}`;
    else await refresh();
  };
  fill(section,
    h("h3", { id: "clubs-invitations-title" }, t("Invitations")),
    h("ul", { class: "clubs-list" }, held.invitations.map((club) => h("li", { class: "club-row", dataset: { club: club.clubId } },
      tagBadge(club.tag), " ", h("a", { href: `#/clubs/${encodeURIComponent(club.clubId)}` }, club.name), " ",
      h("span", { class: "hint" }, t("invited by {nickname}", { nickname: club.by })), " ",
      actionButton(t("Join"), { id: `clubs-accept-${club.clubId}` }, error, answer(club, true)),
      actionButton(t("No, thanks"), { id: `clubs-decline-${club.clubId}` }, error, answer(club, false))))),
    error);
}

function drawFinder(section, ctx) {
  const list = h("ul", { class: "clubs-list", id: "clubs-list", "aria-live": "polite" });
  const status = h("p", { class: "hint", id: "clubs-status", role: "status" });
  const more = h("button", { type: "button", id: "clubs-more", hidden: true }, t("More clubs"));
  const search = h("input", { id: "clubs-search", type: "search", autocomplete: "off", maxlength: "24",
    placeholder: t("First letters of a club's name"), "aria-label": t("Find a club") });
  let next = null;
  let asked = 0;
  async function load(fresh) {
    const ask = ++asked;
    const query = new URLSearchParams();
    if (search.value.trim()) query.set("prefix", search.value.trim());
    if (!fresh && next) query.set("after", next);
    try {
      const page = await ctx.http("GET", `/clubs?${query}`);
      if (ask !== asked) return;
      if (fresh) list.replaceChildren();
      list.append(...page.clubs.map((club) => h("li", { class: "club-row", dataset: { club: club.clubId } },
        clubAvatar(club), " ", tagBadge(club.tag), " ",
        h("a", { href: `#/clubs/${encodeURIComponent(club.clubId)}` }, club.name), " · ",
        h("span", { class: "hint" }, t("{members} of {capacity} members", { members: formatNumber(club.members), capacity: formatNumber(club.capacity) })),
        " · ", h("span", { class: "hint" }, entryLabel(club.entry)))));
      next = page.next;
      more.hidden = !next;
      status.textContent = list.children.length ? "" : (search.value.trim()
        ? t("No club's name starts with {prefix}.", { prefix: search.value.trim() }) : t("No clubs yet: found the first."));
    } catch (problem) {
      if (ask === asked) status.textContent = problem.message;
    }
  }
  more.addEventListener("click", () => load(false));
  fill(section,
    h("h3", { id: "clubs-finder-title" }, t("Find a club")),
    h("form", { class: "players-search", role: "search", onsubmit: (event) => { event.preventDefault(); load(true); } },
      search, h("button", { type: "submit" }, t("Find"))),
    status, list, more);
  load(true);
}

function drawFound(section, held, ctx) {
  const error = errorSlot("club-found-error");
  const name = h("input", { id: "club-found-name", maxlength: "24", minlength: "3", required: true, autocomplete: "off" });
  const looks = looksFields("club-found");
  const admin = held.clubs.some((club) => club.role === "admin");
  fill(section,
    h("h3", { id: "clubs-found-title" }, t("Found a club")),
    admin ? h("p", { class: "hint", id: "club-found-admin" }, t("You are the admin of a club already: one at a time.")) : null,
    actionForm({ id: "club-found-form", class: "club-form" }, error, async () => {
      const club = await ctx.http("POST", "/clubs", { name: name.value, ...looks.values() });
      location.hash = `#/clubs/${encodeURIComponent(club.club.clubId)}`;
    },
    h("label", { for: "club-found-name" }, t("Name"), name),
    looks.fields,
    h("button", { type: "submit", id: "club-found-submit" }, t("Found the club (free)"))),
    error);
}

function drawBoard(section, ctx) {
  const status = h("p", { class: "hint", id: "clubs-board-status", role: "status" });
  const list = h("ol", { class: "clubs-list", id: "clubs-board-list" });
  const month = h("input", { id: "clubs-board-month", type: "month", "aria-label": t("Month") });
  async function load() {
    const period = month.value || "month";
    try {
      const view = await ctx.http("GET", `/club-board?period=${encodeURIComponent(period)}`);
      month.value = view.period;
      fill(list, view.rows.map((row) => h("li", { class: "club-row", dataset: { club: row.club.clubId } },
        h("span", { class: "place" }, `${formatNumber(row.place)}.`), " ",
        tagBadge(row.club.tag), " ",
        h("a", { href: `#/clubs/${encodeURIComponent(row.club.clubId)}` }, row.club.name), " · ",
        h("strong", {}, formatNumber(row.score)), " ",
        h("span", { class: "hint" }, tn("{count} member counted", "{count} members counted", row.counted,
          { count: formatNumber(row.counted) })))));
      status.textContent = view.rows.length ? "" : t("No club has scored this month yet.");
    } catch (problem) {
      status.textContent = problem.message;
    }
  }
  month.addEventListener("change", load);
  fill(section,
    h("h3", { id: "clubs-board-title" }, t("Club board")),
    h("p", { class: "hint" }, t("Each club's members' main-board scores of the month, summed: members who joined during the month and dormant memberships do not count. No prizes: the glory is the club's.")),
    h("label", { for: "clubs-board-month" }, t("Month"), " ", month),
    status, list);
  load();
}

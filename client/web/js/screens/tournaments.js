// #/tournaments (issue 32): the tournaments coming, running and over; #/tournaments/<id>: one
// tournament's page: what it is, its entry (free or for tokens), its live standings (drawn again
// every few seconds while it runs), its games (each watchable, then replayable) and its dice (the
// commitment from the start, the seed once it is over). Everything comes from the HTTP API; the
// nicknames reach the page as text only.

import { fill, h } from "../dom.js";
import { formatDate, formatNumber, t, tn } from "../i18n.js";

const REFRESH_MS = 5_000;
// A failed refresh is tried again after twice the wait of the one before, never more than this.
const RETRY_MAX_MS = 60_000;
// Every show of these screens, and every leaving of them, starts a new generation: an answer
// asked for by an earlier one is dropped (the page it was for is no longer shown), and its timer
// cleared (decision: a screen's late answers are dropped).
let generation = 0;
let refresh = null;

function stopRefresh() {
  generation += 1;
  clearTimeout(refresh);
  refresh = null;
}

/** Whether an answer asked for now may still be drawn in `root`: these screens neither shown
 * again nor left since, and `root` on show. */
function liveness(root) {
  const mine = generation;
  return () => mine === generation && !root.hidden;
}

/** The wait before the next refresh after `failed` failures in a row (0: the normal one). */
const refreshDelay = (failed) => Math.min(REFRESH_MS * 2 ** failed, RETRY_MAX_MS);

export const kindLabel = (kind) => ({ arena: t("Arena"), swiss: t("Swiss"), duplicate: t("Duplicate") })[kind] || kind;

function statusLabel(status) {
  return {
    open: t("Entries open"),
    running: t("Running"),
    finished: t("Over, prizes being paid"),
    paid: t("Over"),
    cancelled: t("Cancelled: too few players, fees given back"),
  }[status] || status;
}

function explanation(view) {
  switch (view.kind) {
    case "arena":
      return t("Play as many games as you can until the end: you are paired again as soon as a game ends. A win is 2 points, a draw 1; after two wins in a row each win counts double until you do not win.");
    case "swiss":
      return tn("{count} round: each round you play someone with about your score whom you have not met. An odd player out gets a bye, worth a win.",
        "{count} rounds: each round you play someone with about your score whom you have not met. An odd player out gets a bye, worth a win.", view.rounds || 0);
    default:
      return t("Everyone plays one game alone, on the same dice: the best score wins. Everyone had the same luck, so skill alone decides.");
  }
}

function when(view) {
  const start = formatDate(view.startsAt, "short");
  if (view.endsAt) return t("{start} to {end}", { start, end: formatDate(view.endsAt, "short") });
  return t("From {start}", { start });
}

function rules(view) {
  const settings = view.settings || {};
  if (settings.preset) return t("Yamb, columns preset {preset}", { preset: settings.preset });
  return t("Yamb, columns: {columns}", { columns: (settings.columns || []).join(", ") });
}

function fee(view) {
  return view.entryFee ? tn("Entry: {count} token", "Entry: {count} tokens", view.entryFee) : t("Entry: free");
}

function prizes(view) {
  if (!view.prizes.length) return t("No prizes");
  return t("Prizes: {prizes}", { prizes: view.prizes.map((tokens) => formatNumber(tokens)).join(" · ") });
}

export const screen = {
  id: "tournaments",
  path: "/tournaments",
  get title() { return t("Tournaments"); },
  nav: true,
  async show(root, _params, ctx) {
    stopRefresh();
    const live = liveness(root);
    fill(root, h("h2", {}, t("Tournaments")), h("p", { class: "hint" }, t("Loading…")));
    let view;
    let season;
    let me;
    try {
      [view, season, me] = await Promise.all([ctx.http("GET", "/tournaments"), ctx.http("GET", "/seasons/current"),
        ctx.http("GET", "/me").catch(() => null)]);
    } catch (problem) {
      if (live()) fill(root, h("h2", {}, t("Tournaments")), h("p", { class: "error", id: "tournaments-error", role: "alert" }, problem.message));
      return;
    }
    if (!live()) return; // the player went elsewhere meanwhile
    const groups = [
      ["tournaments-running", t("Running"), view.tournaments.filter((x) => x.status === "running")],
      ["tournaments-coming", t("Coming"), view.tournaments.filter((x) => x.status === "open").reverse()],
      ["tournaments-over", t("Over"), view.tournaments.filter((x) => !["open", "running"].includes(x.status))],
    ];
    const seasonPanel = h("section", { class: "panel", id: "season" });
    const drawSeason = (shown) => fill(seasonPanel, seasonView(shown, async (league) => {
      try {
        const shownNow = await ctx.http("GET", `/seasons/current?league=${encodeURIComponent(league)}`);
        if (live()) drawSeason(shownNow);
      } catch (problem) {
        if (live()) fill(seasonPanel, h("p", { class: "error", role: "alert" }, problem.message));
      }
    }));
    drawSeason(season);
    fill(root, h("h2", {}, t("Tournaments")),
      h("p", { class: "hint" }, t("Arenas, Swiss tournaments and duplicates: enter one, play your games, win tokens. Every tournament's dice are committed before it opens.")),
      me?.operator ? operatorForm(ctx) : null,
      seasonPanel,
      groups.map(([id, title, found]) => h("section", { class: "panel", id },
        h("h3", {}, title),
        found.length
          ? h("ul", { class: "tournament-list" }, found.map((item) => h("li", { dataset: { tournament: item.tournamentId, status: item.status } },
            h("a", { href: `#/tournaments/${encodeURIComponent(item.tournamentId)}` }, item.name), " ",
            h("span", { class: "badge" }, kindLabel(item.kind)), " ",
            h("span", { class: "hint" }, when(item), " · ", fee(item), " · ", prizes(item)))))
          : h("p", { class: "hint" }, t("None.")))));
  },
  hide: stopRefresh,
};

export const leagueLabel = (league) => ({
  bronze: t("Bronze"), silver: t("Silver"), gold: t("Gold"), platinum: t("Platinum"), diamond: t("Diamond"),
})[league] || league;

function moveLabel(move) {
  return { up: t("Goes up"), down: t("Goes down"), stay: t("Stays") }[move] || move;
}

/** The season: its dates, the player's league and points, a league's table with the zones its
 * end would move as it stands, and the player's season badges. */
function seasonView(season, choose) {
  const select = h("select", { id: "season-league", onchange: () => choose(select.value) },
    season.leagues.map((league) => h("option", { value: league, selected: league === season.league }, leagueLabel(league))));
  return [
    h("h3", {}, t("Season {start} to {end}", { start: formatDate(season.startsAt, "medium"), end: formatDate(season.endsAt, "medium") })),
    h("p", { id: "season-mine" }, t("Your league: {league}", { league: leagueLabel(season.mine) }), " · ",
      tn("{count} point", "{count} points", season.points), " · ", tn("{count} game", "{count} games", season.games)),
    h("p", { class: "hint" }, tn(
      "Every ranked game gives 2 points for each player you finish above, 1 for a tie. When the season ends, the best fifth of each league with at least {count} game goes up, the worst fifth goes down.",
      "Every ranked game gives 2 points for each player you finish above, 1 for a tie. When the season ends, the best fifth of each league with at least {count} games goes up, the worst fifth goes down.",
      season.minGames)),
    h("label", { class: "field" }, h("span", { class: "label" }, t("League")), select),
    season.rows.length
      ? h("div", { class: "sheet-scroll" }, h("table", { class: "board-table", id: "season-table" },
        h("thead", {}, h("tr", {}, [t("Place"), t("Player"), t("Points"), t("Games"), t("At the end")].map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, season.rows.map((row) => h("tr", { class: `${row.me ? "me " : ""}zone-${row.zone}`, dataset: { zone: row.zone, player: row.nickname } },
          h("td", {}, formatNumber(row.place)),
          h("td", {}, h("a", { href: `#/players/${encodeURIComponent(row.nickname)}` }, row.nickname)),
          h("td", { class: "score" }, formatNumber(row.points)),
          h("td", {}, formatNumber(row.games)),
          h("td", {}, moveLabel(row.zone)))))))
      : h("p", { class: "hint", id: "season-empty" }, t("Nobody has played a ranked game in this league this season yet.")),
    season.badges.length
      ? h("div", { id: "season-badges" }, h("h4", {}, t("Your season badges")),
        h("ul", {}, season.badges.map((badge) => h("li", { dataset: { season: badge.seasonId } },
          t("Season of {start}: {league}, place {place}, {points} points", {
            start: formatDate(badge.seasonId, "medium"), league: leagueLabel(badge.league), place: badge.place, points: badge.points,
          }), " (", moveLabel(badge.move), ")"))))
      : null,
  ];
}

export const pageScreen = {
  id: "tournament",
  path: "/tournaments/:tournamentId",
  get title() { return t("Tournament"); },
  nav: false,
  async show(root, { tournamentId }, ctx) {
    stopRefresh();
    const live = liveness(root);
    const path = `/tournaments/${encodeURIComponent(tournamentId)}`;
    const note = h("p", { class: "error", id: "tournament-error", role: "alert" });
    // Said while refreshes fail; the page drawn last stays under it.
    const stale = h("p", { class: "note", id: "tournament-refresh-failed", role: "status", hidden: true });
    let failed = 0;
    let drawn = false;
    // Each request's number: an answer overtaken by a later request's is not drawn.
    let asked = 0;
    const later = (wait) => {
      clearTimeout(refresh);
      refresh = setTimeout(draw, wait);
    };
    fill(root, h("h2", {}, t("Tournament")), h("p", { class: "hint" }, t("Loading…")));
    async function draw() {
      const mine = ++asked;
      let view;
      try {
        view = await ctx.http("GET", path);
      } catch (problem) {
        if (!live() || mine !== asked) return;
        const wait = refreshDelay(++failed);
        if (!drawn) {
          fill(root, h("h2", {}, t("Tournament")), h("p", { class: "error", id: "tournament-error", role: "alert" }, problem.message));
          // An unknown tournament, or one the player may not see, stays so: asked again only
          // when the failure may pass (no answer, a server's fault, too many requests).
          if (problem.status && problem.status < 500 && problem.status !== 429) return;
        } else {
          stale.textContent = tn("The page could not be refreshed: trying again in {count} second.",
            "The page could not be refreshed: trying again in {count} seconds.", Math.round(wait / 1000));
          stale.hidden = false;
        }
        later(wait);
        return;
      }
      if (!live() || mine !== asked) return; // left, or overtaken: another page is on show
      failed = 0;
      drawn = true;
      stale.hidden = true;
      stale.textContent = "";
      document.title = `${view.name} · Yamb`;
      fill(root, head(view), stale, entry(view, path, ctx, note, draw), note, standings(view), games(view), dice(view));
      if (["open", "running", "finished"].includes(view.status)) later(REFRESH_MS);
      else {
        clearTimeout(refresh);
        refresh = null;
      }
    }
    await draw();
  },
  hide: stopRefresh,
};

function head(view) {
  return h("header", { class: "panel", id: "tournament-head", dataset: { status: view.status, kind: view.kind } },
    h("h2", {}, view.name, " ", h("span", { class: "badge" }, kindLabel(view.kind))),
    h("p", { id: "tournament-status" }, h("strong", {}, statusLabel(view.status)),
      view.kind === "swiss" && view.round ? [" · ", t("Round {round} of {rounds}", { round: view.round, rounds: view.rounds })] : null),
    h("p", {}, explanation(view)),
    h("p", { class: "hint" }, when(view), " · ", rules(view), " · ", fee(view), " · ", prizes(view), " · ",
      tn("{count} player", "{count} players", view.entrants)));
}

function entry(view, path, ctx, note, redraw) {
  const mine = view.standings.find((row) => row.me);
  if (mine?.playing) {
    return h("p", { class: "panel", id: "tournament-my-game" }, t("Your game is under way."), " ",
      h("a", { href: `#/game/${encodeURIComponent(mine.playing)}`, id: "tournament-open-game" }, t("Open it")));
  }
  if (view.entered) {
    const waiting = view.status === "open" ? t("You have entered: your first game starts with the tournament.")
      : view.status === "running" ? t("You have entered: your next game is made as soon as there is an opponent. Keep this page open.")
        : t("You took part.");
    return h("p", { class: "note", id: "tournament-entered" }, waiting);
  }
  const closed = view.status !== "open" && !(view.status === "running" && view.kind !== "swiss");
  if (closed) return null;
  const button = h("button", { type: "button", id: "tournament-enter", onclick: async () => {
    button.disabled = true;
    note.textContent = "";
    try {
      await ctx.http("POST", `${path}/entry`, {});
      await redraw();
    } catch (problem) {
      button.disabled = false;
      note.textContent = problem.message;
    }
  } }, view.entryFee ? tn("Enter for {count} token", "Enter for {count} tokens", view.entryFee) : t("Enter"));
  return h("p", {}, button);
}

function points(view, row) {
  if (view.kind === "duplicate") return row.score == null ? "–" : formatNumber(row.score);
  if (view.kind === "swiss") return formatNumber(row.points / 2);
  return formatNumber(row.points);
}

function standings(view) {
  const heads = view.kind === "duplicate"
    ? [t("Place"), t("Player"), t("Score")]
    : [t("Place"), t("Player"), t("Points"), t("Games"), t("Results"), ...(view.kind === "swiss" ? [t("Tiebreak")] : [])];
  return h("section", { class: "panel", id: "tournament-standings" },
    h("h3", {}, t("Standings")),
    view.standings.length
      ? h("div", { class: "sheet-scroll" }, h("table", { class: "board-table" },
        h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, view.standings.map((row) => h("tr", { class: row.me ? "me" : "", dataset: { place: row.place, player: row.nickname } },
          h("td", {}, formatNumber(row.place)),
          h("td", {}, h("a", { href: `#/players/${encodeURIComponent(row.nickname)}` }, row.nickname),
            row.onFire ? [" ", h("span", { class: "badge", title: t("On a streak: wins count double") }, "🔥")] : null),
          h("td", { class: "score" }, points(view, row)),
          view.kind === "duplicate" ? null : [
            h("td", {}, formatNumber(row.games)),
            h("td", { class: "results" }, row.results),
            view.kind === "swiss" ? h("td", {}, formatNumber(row.tiebreak / 2)) : null,
          ])))))
      : h("p", { class: "hint" }, t("Nobody has entered yet.")));
}

// A tournament in one of these has no game to come: a duplicate's games show their dice then.
const OVER = new Set(["finished", "paid", "cancelled"]);

function games(view) {
  // Every entrant of a duplicate plays the same dice: one's game, watched or replayed, would
  // show the others every roll to come (the server refuses it: `deal_in_play`).
  const kept = view.kind === "duplicate" && !OVER.has(view.status);
  return h("section", { class: "panel", id: "tournament-games" },
    h("h3", {}, t("Games")),
    kept && view.games.length
      ? h("p", { class: "hint", id: "tournament-deal-kept" },
        t("Every entrant plays the same dice: the games can be watched and replayed once the tournament is over."))
      : null,
    view.games.length
      ? h("ul", {}, view.games.map((game) => h("li", { dataset: { game: game.gameId, ended: String(game.ended) } },
        view.kind === "swiss" ? [t("Round {round}", { round: game.round }), ": "] : null,
        game.players.map((name, index) => [index ? " – " : "", name,
          game.ended && name in game.totals ? ` (${formatNumber(game.totals[name])})` : ""]),
        // A forfeit was never played: who sat at another game lost it, nothing to replay.
        game.forfeit
          ? [" ", h("span", { class: "forfeit" },
            game.winners.length
              ? t("forfeit: {winners} won, the other was at another game", { winners: game.winners.join(", ") })
              : t("forfeit: both were at other games"))]
          : kept ? null : [" ", game.ended
            ? h("a", { href: `#/replay/${encodeURIComponent(game.gameId)}` }, t("Replay"))
            : h("a", { href: `#/game/${encodeURIComponent(game.gameId)}` }, t("Watch"))])))
      : h("p", { class: "hint" }, t("No game yet.")));
}

function dice(view) {
  return h("section", { class: "panel", id: "tournament-dice" },
    h("h3", {}, t("Dice")),
    h("p", {}, t("Every game's dice follow from one seed, fixed before the tournament opened. Its SHA-256 commitment:")),
    h("p", {}, h("code", { id: "tournament-commitment" }, view.commitment)),
    view.seed
      ? [h("p", {}, t("The seed, revealed now that the tournament is over: each game's seed is its HMAC-SHA256 with the game's id (\"deal\" in a duplicate).")),
        h("p", {}, h("code", { id: "tournament-seed" }, view.seed)), seedCheck(view)]
      : h("p", { class: "hint" }, t("The seed is revealed when the tournament is over.")));
}

/** The revealed seed checked here, in the browser: its SHA-256 must be the commitment shown
 * since the tournament was created. */
function seedCheck(view) {
  const said = h("p", { id: "tournament-seed-check", role: "status" });
  const bytes = new Uint8Array(view.seed.match(/../g).map((pair) => parseInt(pair, 16)));
  crypto.subtle.digest("SHA-256", bytes).then((digest) => {
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const ok = hex === view.commitment;
    said.dataset.ok = String(ok);
    said.textContent = ok
      ? t("✓ The seed's SHA-256 is the commitment published before the tournament opened.")
      : t("✗ The seed's SHA-256 is not the commitment published before the tournament opened.");
  });
  return said;
}

/** An operator's new tournament (the server refuses anyone else): its kind, name, start, length
 * or rounds, rules, fee and prizes; the new tournament's page once made. */
function operatorForm(ctx) {
  const error = h("p", { class: "error", id: "new-tournament-error", role: "alert" });
  const field = (label, control) => h("label", { class: "field" }, h("span", { class: "label" }, label), control);
  const kind = h("select", { name: "kind", id: "new-tournament-kind" },
    ["arena", "swiss", "duplicate"].map((value) => h("option", { value }, kindLabel(value))));
  const inHour = new Date(Date.now() + 3600_000);
  inHour.setSeconds(0, 0);
  const local = new Date(inHour.getTime() - inHour.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  const form = h("form", { class: "panel", id: "new-tournament", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    const values = form.elements;
    const swiss = values.kind.value === "swiss";
    const prizes = values.prizes.value.split(",").map((text) => text.trim()).filter(Boolean).map(Number);
    const plan = {
      kind: values.kind.value,
      name: values.name.value.trim(),
      startsAt: new Date(values.startsAt.value).toISOString(),
      ...(swiss ? { rounds: Number(values.rounds.value) } : { minutes: Number(values.minutes.value) }),
      rules: { preset: Number(values.preset.value) },
      ranked: values.ranked.checked,
      entryFee: Number(values.entryFee.value || 0),
      prizes,
    };
    try {
      const made = await ctx.http("POST", "/tournaments", plan);
      ctx.navigate(`#/tournaments/${encodeURIComponent(made.tournamentId)}`);
    } catch (problem) {
      error.textContent = problem.message;
    }
  } },
  h("h3", {}, t("New tournament")),
  field(t("Kind"), kind),
  field(t("Name"), h("input", { name: "name", id: "new-tournament-name", required: true, maxlength: "60" })),
  field(t("Starts at"), h("input", { name: "startsAt", id: "new-tournament-start", type: "datetime-local", value: local })),
  field(t("Minutes (arena, duplicate)"), h("input", { name: "minutes", id: "new-tournament-minutes", type: "number", min: "5", value: "60" })),
  field(t("Rounds (Swiss)"), h("input", { name: "rounds", id: "new-tournament-rounds", type: "number", min: "2", max: "11", value: "5" })),
  field(t("Columns preset"), h("input", { name: "preset", id: "new-tournament-preset", type: "number", min: "1", max: "7", value: "1" })),
  field(t("Entry fee (tokens)"), h("input", { name: "entryFee", id: "new-tournament-fee", type: "number", min: "0", value: "0" })),
  field(t("Prizes (tokens, first place first, commas between)"), h("input", { name: "prizes", id: "new-tournament-prizes", value: "" })),
  h("label", { class: "field" }, h("input", { type: "checkbox", name: "ranked", id: "new-tournament-ranked", checked: true }), " ", t("Ranked games")),
  error,
  h("button", { type: "submit", id: "new-tournament-create" }, t("Create the tournament")));
  return form;
}

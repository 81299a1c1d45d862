// The game screen: seats, the turn (dice, locks, roll, announcement, pending choice, clock),
// every sheet, the finish offer, the result and its replay, and the game chat. It is drawn anew
// from each game frame; what the player is doing between frames (announcing, a choice waiting
// out its undo delay, a half-typed chat line) lives in `ui`, outside the drawing.

import { byId, fill, h } from "./dom.js";
import { formatDate, formatNumber, t, tn } from "./i18n.js";
import { cellLabel, columnLabel, gridLabel, levelLabel, rowLabel, statusLabel, turnTypeLabel } from "./labels.js";
import { dress } from "./looks.js";
import { tagBadge } from "./clubs.js";
import { renderExtras, setUpExtras } from "./game/extras.js";
import { seedSettled } from "./game/fairness.js";
import { sheetTable } from "./sheet.js";

// A die's pips on a 3 x 3 grid (cells 0-8, row by row): the face as a real die shows it.
const PIPS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];
const params = new URLSearchParams(location.search);
// How long a chosen cell waits before it is written, so that a misclick can be taken back.
export const UNDO_MS = Math.max(0, Number(params.get("undoMs") ?? 1500));

// locks: the locks asked for this roll, ahead of the server's answer (quick clicks add up);
// rolling: a roll is on its way (a held key or a double click sends no second one; the roll
// carries the roll count it was asked at, so the server refuses a copy too); shownRoll: the
// roll whose dice are drawn (a new one tumbles once); botLevel: the level chosen
// for the next bot; hint: the advice shown for one state of the turn (`key`), hinting: asked.
export const ui = {
  announcing: false, choice: null, locks: null, rolling: false, shownRoll: null, enterDice: "",
  botLevel: "easy", hint: null, hinting: null,
};

// The bots' levels (yamb.bots.levels): "optimal" plays only the Yahtzee-family grids.
const BOT_LEVELS = ["easy", "medium", "hard", "optimal"];
const OPTIMAL_GRIDS = new Set(["classic", "scandinavian", "yacht", "generala"]);
const botLevelsFor = (grid) => BOT_LEVELS.filter((level) => level !== "optimal" || OPTIMAL_GRIDS.has(grid));
// A hint answers after roll 1 or 2 of the player's own turn (yamb.session.hints).
const HINT_ROLLS = [1, 2];

let app = null; // {state, act, showLobby, watch}

export function setUp(context) {
  app = context;
  document.addEventListener("keydown", onKey);
  applyMotion();
  setUpExtras(context);
}

// Motion: the dice tumble on a roll unless the system asks for reduced motion (CSS) or the
// player turned it off here (kept for the next visit).
const motionOn = () => localStorage.getItem("yamb.motion") !== "off";
function applyMotion() {
  if (motionOn()) delete document.documentElement.dataset.motion;
  else document.documentElement.dataset.motion = "off";
}

function motionSwitch() {
  return h("label", { class: "motion-switch inline" },
    h("input", { type: "checkbox", id: "motion", checked: motionOn(), onchange: (event) => {
      localStorage.setItem("yamb.motion", event.target.checked ? "on" : "off");
      applyMotion();
    } }), t("Animate the dice"));
}

function nameOf(game, playerId) {
  const seat = game.seats.find((s) => s.playerId === playerId);
  return (seat && seat.nickname) || playerId;
}

// At a scorekeeping table the creator may type and write for the player in turn.
const isMine = (game) => Boolean(game.turn) && (game.turn.playerId === app.state.me
  || (game.settings.physicalDice && game.creator === app.state.me && game.status === "running"));
const seated = (game) => game.seats.some((s) => s.playerId === app.state.me);

/** A choice waiting out its undo delay belongs to one turn: a new turn drops it. */
function dropStaleChoice(game) {
  const choice = ui.choice;
  if (!choice) return;
  const turn = game.turn;
  if (!turn || turn.number !== choice.turn || turn.roll !== choice.roll || choice.gameId !== game.gameId || !isMine(game)) {
    clearTimeout(choice.timer);
    ui.choice = null;
  }
}

/** A hint belongs to one state of the turn: a roll, an announcement, another turn drop it. */
const hintKey = (game) => {
  const turn = game.turn;
  if (!turn) return null;
  return [game.gameId, turn.number, turn.playerId, turn.roll, turn.dice.join(""),
    turn.announcement ? `${turn.announcement.column}/${turn.announcement.row}` : ""].join("|");
};

function dropStaleHint(game) {
  if (ui.hint && ui.hint.key !== hintKey(game)) ui.hint = null;
  if (ui.hinting && ui.hinting !== hintKey(game)) ui.hinting = null;
}

export function renderGame(game) {
  dropStaleChoice(game);
  dropStaleHint(game);
  if (!isMine(game)) ui.announcing = false;
  fill(byId("game-head"), head(game));
  fill(byId("game-seats"), seats(game));
  // A panel with nothing to say (the turn once the game is over) is not left empty on screen.
  const turnBox = fill(byId("game-turn"), turnPanel(game));
  turnBox.hidden = turnBox.childElementCount === 0;
  fill(byId("game-offer"), offer(game));
  fill(byId("game-sheets"), sheets(game));
  fill(byId("game-result"), result(game));
  renderExtras(game, app);
  tick();
}

// --------------------------------------------------------------------------- head and seats

function settingsSummary(settings) {
  const parts = [gridLabel(settings.grid)];
  if (settings.preset) parts.push(t("preset {number}", { number: settings.preset }));
  else if (settings.columns) parts.push(settings.columns.map(columnLabel).join(", "));
  parts.push(tn("{count} player", "{count} players", settings.players));
  if (settings.pairs) parts.push(t("2 vs 2"));
  parts.push(turnTypeLabel(settings.turnType));
  parts.push(settings.turnSeconds ? t("{seconds} s a turn", { seconds: settings.turnSeconds }) : t("no clock"));
  if (settings.dice === 6) parts.push(t("6 dice"));
  if (settings.ranked) parts.push(t("ranked"));
  if (settings.physicalDice) parts.push(t("real dice"));
  if (settings.sameDice) parts.push(t("same dice"));
  if (settings.timeBonus) parts.push(t("time bonus"));
  return parts.join(" · ");
}

const outcomeWords = () => ({
  completed: t("Every sheet was filled."), resigned: t("Ended by a resignation."), abandoned: t("Ended when players left."),
  cancelled: t("Cancelled: too little of it was played to count."), declined_finish: t("The last player chose to end it."),
  deadline: t("The slow game's deadline passed."),
});

/** "Yamb · ana vs ben": the grid and who sits there, rather than the game's id. */
export function gameTitle(game) {
  const names = game.seats.map((seat) => seat.nickname || t("a player"));
  const players = game.settings.pairs ? names.join(", ")
    : names.length ? names.reduce((first, second) => t("{first} vs {second}", { first, second })) : "";
  return `${gridLabel(game.settings.grid)} · ${players}`;
}

function head(game) {
  const mine = seated(game);
  const creator = game.creator === app.state.me;
  const buttons = [];
  const act = (action, fields = {}) => app.act(action, { gameId: game.gameId, ...fields }, "game-actions-error");
  if (game.status === "waiting" && creator) {
    // After this browser's own seed is committed: the start freezes the commitments.
    buttons.push(h("button", { id: "start", onclick: () => seedSettled(game.gameId).then(() => act("start_game")) }, t("Start")));
  }
  if (game.status === "waiting" && mine) {
    buttons.push(h("button", { id: "leave", onclick: () => act("leave_game").then((a) => a && app.showLobby()) }, t("Leave")));
  }
  if (game.status === "waiting" && creator) {
    buttons.push(h("button", { id: "delete", class: "danger",
      onclick: () => act("delete_game").then((a) => a && app.showLobby()) }, t("Delete")));
  }
  if (game.status === "running" && mine) {
    // Not while the first roll waits for the players' sealed seeds (a few seconds): the server
    // takes no resignation from a game with no dice yet.
    buttons.push(h("button", { id: "resign", class: "danger", disabled: Boolean(game.fairness?.revealBy), onclick: () => {
      if (confirm(t("Resign this game? Your opponents win."))) act("resign");
    } }, t("Resign")));
  }
  if (game.status === "finished" || game.status === "cancelled") {
    // The replay tells each player's skill from their luck (issue 32): on a family grid against
    // the optimal player, on Yamb against the hard bot (not with a Directed column, nor 2 vs 2).
    const judged = game.status === "finished" && game.settings
      && (game.settings.grid && game.settings.grid !== "yamb"
        || !game.settings.pairs && !(game.settings.columns || app.state.catalog.presets[game.settings.preset] || []).includes("directed"));
    buttons.push(h("a", { id: "replay", class: "button", href: `#/replay/${game.gameId}` },
      judged ? t("Replay, skill and luck") : t("Replay")));
  }
  buttons.push(h("button", { id: "to-lobby", onclick: () => app.showLobby() }, t("Games")));
  buttons.push(motionSwitch());
  const watching = !mine ? h("span", { class: "badge" }, t("watching")) : null;
  return [
    h("div", { class: "game-title" },
      h("h2", {}, gameTitle(game), " ",
        h("span", { class: `status status-${game.status}`, id: "game-status", dataset: { status: game.status } }, statusLabel(game.status)),
        " ", watching, " ", h("small", { class: "hint game-id", title: t("The game's id") }, game.gameId)),
      h("p", { class: "settings" }, settingsSummary(game.settings)),
      game.slowDeadline ? h("p", {}, t("Ends at {time}", { time: formatDate(game.slowDeadline, "short") })) : null),
    h("div", { class: "actions" }, buttons),
    h("p", { class: "error", id: "game-actions-error", role: "alert" }),
  ];
}

function seats(game) {
  const ownTurns = ["simultaneous", "each_for_themself", "slow"].includes(game.settings.turnType);
  const following = app.state.watching?.gameId === game.gameId ? app.state.watching.follow : null;
  const items = game.seats.map((seat) => {
    const you = seat.playerId === app.state.me;
    const inTurn = game.turn && !ownTurns && game.turn.playerId === seat.playerId;
    const classes = ["seat"];
    if (inTurn || seat.inTurn) classes.push("in-turn");
    if (!seat.present) classes.push("away");
    if (seat.left) classes.push("left");
    const facts = [];
    if (seat.bot) facts.push(h("span", { class: "badge bot", title: t("a bot") }, "🤖 ", levelLabel(seat.bot)));
    if (game.turnsPerSheet) facts.push(h("span", { class: "progress" }, `${seat.turnsPlayed}/${game.turnsPerSheet}`));
    if (game.waitingFor.includes(seat.playerId)) facts.push(h("span", { class: "badge waiting" }, t("playing the round")));
    if (seat.left) facts.push(h("span", { class: "badge" }, t("left")));
    else if (seat.paused) {
      facts.push(h("span", { class: "badge paused" }, t("paused")));
      if (seat.returnDeadline) facts.push(h("span", { class: "countdown return", dataset: { deadline: seat.returnDeadline } }));
    } else if (!seat.present && !seat.bot) {
      facts.push(h("span", { class: "badge away" }, t("away")));
      if (seat.returnDeadline) facts.push(h("span", { class: "countdown return", dataset: { deadline: seat.returnDeadline } }));
    }
    if (seat.turnDeadline) facts.push(h("span", { class: "countdown clock", dataset: { deadline: seat.turnDeadline } }));
    if (seat.decisionMs !== null && seat.decisionMs !== undefined) facts.push(h("span", { class: "decision" }, t("{seconds} s", { seconds: formatNumber(seat.decisionMs / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) })));
    const follow = !seated(game) && ownTurns && game.status === "running"
      ? h("button", { class: "follow", disabled: following === seat.playerId,
          onclick: () => app.watch(game.gameId, seat.playerId) }, following === seat.playerId ? t("following") : t("follow"))
      : null;
    const remove = seat.bot && managesBots(game)
      ? h("button", { class: "remove-bot", "aria-label": t("remove {name}", { name: seat.nickname || seat.playerId }),
          onclick: () => app.act("remove_bot", { gameId: game.gameId, playerId: seat.playerId }, "bot-error") }, t("Remove"))
      : null;
    if (seat.bot) classes.push("bot");
    return dress(h("li", { class: classes.join(" "), dataset: { player: seat.playerId } },
      h("span", { class: "nickname" }, seat.nickname || seat.playerId),
      seat.club ? [" ", tagBadge(seat.club)] : null, // the main club's (C1)
      you ? h("span", { class: "badge you" }, t("you")) : null,
      " ", facts, follow, remove), { frame: seat.frame }); // E5
  });
  return [h("h3", {}, t("Players")), h("ul", { class: "seats" }, items), botControls(game), inviteControl(game)];
}

/** A player seated at a waiting table with a free seat invites someone to it by nickname (S2):
 * they get the invitation at once, or at their next sign-in. */
function inviteControl(game) {
  if (game.status !== "waiting" || !seated(game) || game.seats.length >= game.settings.players) return null;
  const name = h("input", { id: "invite-nickname", maxlength: "30", autocomplete: "off", value: ui.inviteName || "",
    placeholder: t("a nickname"), "aria-label": t("Invite a player"), "aria-describedby": "invite-error",
    oninput: (event) => { ui.inviteName = event.target.value; } });
  const note = h("p", { class: "hint", id: "invite-note", role: "status" });
  const form = h("form", { class: "controls invite-form", id: "invite-form", onsubmit: async (event) => {
    event.preventDefault();
    const nickname = name.value.trim();
    if (!nickname) return;
    const answer = await app.act("invite", { gameId: game.gameId, nickname }, "invite-error", { open: false });
    if (answer) {
      ui.inviteName = "";
      name.value = "";
      note.textContent = t("Invitation sent to {nickname}.", { nickname: answer.invitation.to });
    }
  } }, name, h("button", { type: "submit", id: "invite-send" }, t("Invite")));
  return h("div", { class: "invite" }, form, note, h("p", { class: "error", id: "invite-error", role: "alert" }));
}

/** The creator of a waiting table seats and removes bots. */
const managesBots = (game) => game.status === "waiting" && game.creator === app.state.me;

/** Ranked, 2 vs 2, slow and real-dice tables are for people only (yamb.session.bot_seats);
 * the controls are not offered there (the server still judges). */
const takesBots = (settings) => !settings.ranked && !settings.pairs && settings.turnType !== "slow" && !settings.physicalDice;

function botControls(game) {
  if (!managesBots(game) || !takesBots(game.settings)) return null;
  const bots = game.seats.some((seat) => seat.bot);
  const free = game.seats.length < game.settings.players;
  const slot = h("p", { class: "error", id: "bot-error", role: "alert" });
  if (!free) return bots ? slot : null; // a Remove beside a bot seat still needs its slot
  const levels = botLevelsFor(game.settings.grid);
  if (!levels.includes(ui.botLevel)) ui.botLevel = levels[0];
  const select = h("select", { id: "bot-level", "aria-label": t("bot level"),
    onchange: (event) => { ui.botLevel = event.target.value; } },
  levels.map((level) => h("option", { value: level, selected: level === ui.botLevel }, levelLabel(level))));
  return h("div", { class: "add-bot" },
    h("div", { class: "controls" }, select,
      h("button", { id: "add-bot", onclick: () => app.act("add_bot", { gameId: game.gameId, level: select.value }, "bot-error") }, t("Add bot"))),
    slot);
}

// --------------------------------------------------------------------------- the turn

function turnPanel(game) {
  const turn = game.turn;
  if (!turn) {
    if (game.status === "waiting") return h("p", { class: "hint" }, t("Waiting for players ({seated}/{seats}).", { seated: game.seats.length, seats: game.settings.players }));
    if (game.status === "running" && game.waitingFor.length) {
      return h("p", { class: "hint", id: "round-wait" }, t("Waiting for {players} to end the round.",
        { players: game.waitingFor.map((id) => nameOf(game, id)).join(", ") }));
    }
    return null;
  }
  const mine = isMine(game);
  const act = (action, fields = {}) => app.act(action, { gameId: game.gameId, turn: turn.number, ...fields }, "turn-error");
  const asked = ui.locks && ui.locks.gameId === game.gameId && ui.locks.turn === turn.number && ui.locks.roll === turn.roll;
  if (!asked) ui.locks = null;
  const locks = new Set(asked ? ui.locks.set : turn.locks);
  const canLock = mine && turn.canRoll && turn.roll > 0 && !game.settings.physicalDice && !turn.grace && !ui.choice;
  const advice = ui.hint && ui.hint.key === hintKey(game) ? ui.hint.frame : null;
  const advised = new Set(advice?.move === "roll" ? advice.keep || [] : []);
  // A new roll tumbles the dice it threw, once (not the kept ones; not with motion off).
  const rollKey = `${game.gameId}|${turn.number}|${turn.playerId}|${turn.roll}`;
  const tumbling = turn.roll > 0 && ui.shownRoll !== null && ui.shownRoll !== rollKey;
  ui.shownRoll = rollKey;
  const dice = turn.dice.map((face, index) => {
    const kept = locks.has(index);
    const props = {
      class: `die${kept ? " locked" : ""}${advised.has(index) ? " hinted" : ""}${tumbling && !kept ? " tumble" : ""}${face ? "" : " blank"}`,
      dataset: { index: String(index), face: String(face) },
      "aria-label": dieLabel(index, face, kept, advised.has(index)),
    };
    const drawn = [dieFace(face), h("span", { class: "face", "aria-hidden": "true" }, face ? String(face) : "")];
    // Only the player in turn holds dice: for everyone else they are pictures, not controls
    // (a watcher's dice are drawn as brightly as the player's).
    if (!mine) return h("span", { ...props, role: "img" }, drawn);
    return h("button", {
      ...props,
      "aria-pressed": kept ? "true" : "false",
      disabled: !canLock,
      onclick: () => {
        const next = new Set(locks);
        if (next.has(index)) next.delete(index); else next.add(index);
        ui.locks = { gameId: game.gameId, turn: turn.number, roll: turn.roll, set: [...next].sort((a, b) => a - b) };
        act("lock", { keep: ui.locks.set }).then((answer) => {
          if (!answer) ui.locks = null; // refused: the server's locks stand
        });
        renderGame(app.state.game);
      },
    }, drawn);
  });
  const bot = game.seats.find((seat) => seat.playerId === turn.playerId)?.bot;
  const who = mine ? t("Your turn") : t("{player}'s turn", { player: `${bot ? "🤖 " : ""}${nameOf(game, turn.playerId)}` });
  const part = turn.part ? ` · ${turn.part === 1 ? t("proposes") : t("finishes the team turn")}` : "";
  const clock = turn.frozenMs !== null && turn.frozenMs !== undefined
    ? h("span", { class: "clock frozen" }, `⏸ ${t("{seconds} s", { seconds: Math.ceil(turn.frozenMs / 1000) })}`)
    : turn.deadline ? h("span", { class: "countdown clock", id: "turn-clock", dataset: { deadline: turn.deadline } }) : null;
  const controls = [];
  // Pause (rules.md 8): the player in turn freezes their own clock, once a turn; until they
  // resume, the server refuses their moves (`paused`) and the others see the return countdown.
  const own = game.seats.find((seat) => seat.playerId === app.state.me);
  const paused = Boolean(own && own.paused);
  if (turn.playerId === app.state.me && paused) {
    controls.push(h("button", { id: "resume", class: "primary", onclick: () => act("resume") }, t("Resume")));
  } else if (turn.playerId === app.state.me && turn.deadline && game.settings.turnType !== "slow") {
    controls.push(h("button", { id: "pause", title: t("once a turn"), onclick: () => act("pause") }, t("Pause")));
  }
  if (mine && !game.settings.physicalDice) {
    controls.push(h("button", { id: "roll", class: "primary", disabled: !turn.canRoll || ui.rolling || Boolean(ui.choice) || paused,
      title: t("R or Space"), onclick: (event) => {
        // One click, one roll: the button is off at once, before any answer (a double click's
        // second click meets it disabled), and the roll names the count it was asked at.
        if (ui.rolling) return;
        ui.rolling = true;
        event.currentTarget.disabled = true;
        act("roll", { keep: [...locks].sort((a, b) => a - b), roll: turn.roll }).finally(() => {
          ui.rolling = false;
          redrawKeepingError();
        });
      } }, t("Roll")));
  }
  if (mine && game.settings.physicalDice) {
    const input = h("input", { id: "enter-dice", inputmode: "numeric", maxlength: String(game.settings.dice),
      value: ui.enterDice, oninput: (event) => { ui.enterDice = event.target.value; },
      placeholder: tn("{count} face, e.g. {example}", "{count} faces, e.g. {example}", game.settings.dice,
        { example: "35126".slice(0, game.settings.dice) }),
      "aria-label": t("the dice rolled at the table") });
    controls.push(input, h("button", { id: "enter", onclick: () => {
      const faces = [...input.value.replace(/\D/g, "")].map(Number);
      act("enter_dice", { dice: faces }).then((a) => { if (a) ui.enterDice = ""; });
    } }, t("Enter dice")));
  }
  // In 2 vs 2 an announcement only opens a cell (turn.opened); one a team turn is enough here.
  if (mine && !turn.announcement && !turn.opened.length && !ui.choice && announceColumns(game, turn).length) {
    controls.push(h("button", { id: "announce", "aria-pressed": ui.announcing ? "true" : "false",
      class: ui.announcing ? "active" : "", title: "A", onclick: () => { ui.announcing = !ui.announcing; renderGame(app.state.game); } },
      ui.announcing ? t("Pick the cell to announce…") : t("Announce")));
  }
  if (hintable(game)) {
    const asking = ui.hinting === hintKey(game);
    controls.push(h("button", { id: "hint", title: "H", disabled: asking || Boolean(advice),
      onclick: () => askHint(game) }, asking ? t("Thinking…") : t("Hint")));
  }
  const facts = [];
  if (advice) facts.push(hintNote(game, advice));
  if (turn.announcement) facts.push(h("p", { class: "announcement" }, t("Announced: {cell}", { cell: cellLabel(turn.announcement) })));
  if (turn.directedRow) facts.push(h("p", { class: "directed-row" }, t("Directed: {row}", { row: rowLabel(turn.directedRow) })));
  if (turn.proposal) {
    facts.push(h("p", { class: "proposal-note" },
      t("Proposal: {cell} ({score})", { cell: cellLabel(turn.proposal), score: turn.proposal.score })));
  }
  if (turn.opened.length) facts.push(h("p", {}, t("Opened: {cells}", { cells: turn.opened.map(cellLabel).join(", ") })));
  if (paused && turn.playerId === app.state.me) facts.push(h("p", { class: "paused-note", id: "paused-note" }, t("Paused: your clock is frozen. Resume within the countdown, or you leave the game.")));
  if (turn.grace) facts.push(h("p", { class: "grace" }, t("Time is up: the dice are locked, choose a cell.")));
  if (ui.choice) {
    facts.push(h("p", { class: "pending-note", id: "pending" },
      t("Writing {cell} ({score})", { cell: cellLabel(ui.choice.cell), score: ui.choice.cell.score }), " ",
      h("button", { id: "undo", title: t("U or Escape"), onclick: undo }, t("Undo"))));
  } else if (turn.pending) {
    facts.push(h("p", { class: "pending-note" }, t("Chosen: {cell}", { cell: cellLabel(turn.pending) })));
  }
  const history = turn.rolls.length > 1
    ? h("ol", { class: "roll-history" }, turn.rolls.map((r) => h("li", {}, r.dice.join(" "), r.kept.length ? [" ", t("(kept {dice})", { dice: r.kept.map((k) => k + 1).join(",") })] : "")))
    : null;
  return [
    h("div", { class: `turn-head${mine ? " mine" : ""}` },
      h("strong", { id: "turn-who" }, who), part, " · ", t("roll {roll}/3", { roll: turn.roll }), " ", clock),
    dress(h("div", { class: "dice", id: "dice" }, dice), { dice: turn.diceSkin }), // E5
    h("div", { class: "controls" }, controls),
    facts,
    history,
    h("p", { class: "error", id: "turn-error", role: "alert" }),
  ];
}

/** "Die 3 showing 5, kept": what a screen reader says of a die. */
function dieLabel(index, face, kept, advised) {
  const number = index + 1;
  if (!face) return t("Die {number}, not rolled yet", { number });
  if (kept && advised) return t("Die {number} showing {face}, kept, the hint keeps it", { number, face });
  if (kept) return t("Die {number} showing {face}, kept", { number, face });
  if (advised) return t("Die {number} showing {face}, the hint keeps it", { number, face });
  return t("Die {number} showing {face}", { number, face });
}

/** A die's face drawn with its pips (CSS places them on a 3 x 3 grid). */
function dieFace(face) {
  const spots = new Set(PIPS[face] || []);
  return h("span", { class: "pips", "aria-hidden": "true" },
    Array.from({ length: 9 }, (_, spot) => h("span", { class: spots.has(spot) ? "pip on" : "pip" })));
}

// --------------------------------------------------------------------------- hints

/** A hint is for a player practising alone (no other person seated), at roll 1 or 2 of
 * their own turn; the server judges the rest (hint_not_allowed, hint_not_now). */
function hintable(game) {
  const turn = game.turn;
  if (!turn || game.status !== "running" || turn.playerId !== app.state.me) return false;
  if (game.seats.filter((seat) => !seat.bot).length !== 1 || !seated(game)) return false;
  return HINT_ROLLS.includes(turn.roll) && !turn.grace && !ui.choice;
}

async function askHint(game) {
  const key = hintKey(game);
  if (ui.hinting === key) return;
  ui.hinting = key;
  renderGame(game);
  const frame = await app.act("hint", { gameId: game.gameId, turn: game.turn.number }, "turn-error", { open: false });
  if (ui.hinting === key) ui.hinting = null;
  const now = app.state.game;
  // An answer to a state of the turn that has gone meanwhile is not shown.
  if (now && frame && frame.type === "hint" && hintKey(now) === key) ui.hint = { key, frame };
  redrawKeepingError();
}

/** Draws the game again after an answer that brought no game frame: a refusal's message,
 * shown beside the turn's controls, stays. */
function redrawKeepingError() {
  const game = app.state.game;
  if (!game || byId("game").hidden) return;
  const message = byId("turn-error")?.textContent || "";
  renderGame(game);
  const slot = byId("turn-error");
  if (slot && message) slot.textContent = message;
}

function hintNote(game, advice) {
  // A weaker level than the grid's best answered (the optimal player's table is not built on
  // this server): say so, the advice is not the optimal one.
  const by = advice.weakerThan
    ? h("span", { class: "hint-by weaker" }, " ", t("(hint from {level}: {wanted} is not available here)",
      { level: levelLabel(advice.level), wanted: levelLabel(advice.weakerThan) }))
    : h("span", { class: "hint-by" }, " ", t("({level} bot)", { level: levelLabel(advice.level) }));
  if (advice.move === "roll") {
    const keep = (advice.keep || []).filter((i) => i >= 0 && i < game.turn.dice.length);
    const faces = keep.map((i) => game.turn.dice[i]).join(" ");
    const text = !keep.length ? t("Roll all the dice")
      : keep.length === game.turn.dice.length ? t("Keep {faces} and roll", { faces }) : t("Keep {faces}, roll the rest", { faces });
    return h("p", { class: "advice", id: "turn-hint" }, t("Hint: {advice}", { advice: text }), by);
  }
  const cell = cellLabel({ column: String(advice.column), row: String(advice.row) });
  const text = advice.move === "announce" ? t("Announce {cell}", { cell }) : t("Write {cell}", { cell });
  return h("p", { class: "advice", id: "turn-hint" }, t("Hint: {advice}", { advice: text }), by);
}

/** The cell a hint names, for its sheet to mark. */
function hintedCell(game) {
  const advice = ui.hint && ui.hint.key === hintKey(game) ? ui.hint.frame : null;
  return advice && advice.move !== "roll" ? { column: advice.column, row: advice.row } : null;
}

/** The sheet's columns in which an announcement can be made at this roll. */
function announceColumns(game, turn) {
  const open = new Set(app.state.catalog.columnTypes
    .filter((c) => c.announceByRoll && turn.roll >= 1 && turn.roll <= c.announceByRoll).map((c) => c.id));
  return (game.settings.columns || app.state.catalog.presets[game.settings.preset] || []).filter((c) => open.has(c));
}

function choose(game, cell) {
  const turn = game.turn;
  if (ui.choice) return;
  const fields = { gameId: game.gameId, turn: turn.number, column: cell.column, row: cell.row };
  const write = () => {
    ui.choice = null;
    app.act("write", fields, "turn-error");
  };
  if (UNDO_MS === 0) {
    write();
    return;
  }
  // The choice is reported at once (it beats the clock), written once the undo delay is over.
  ui.choice = { gameId: game.gameId, turn: turn.number, roll: turn.roll, cell, timer: setTimeout(write, UNDO_MS) };
  app.act("select", { gameId: game.gameId, turn: turn.number, column: cell.column, row: cell.row }, "turn-error")
    .then((answer) => { if (!answer) undo(false); }); // not pending at the server: not written
  renderGame(game);
}

function undo(tell = true) {
  const choice = ui.choice;
  if (!choice) return;
  clearTimeout(choice.timer);
  ui.choice = null;
  if (tell) app.act("select", { gameId: choice.gameId, turn: choice.turn, column: null, row: null }, "turn-error");
  if (app.state.game) renderGame(app.state.game);
}

function announce(game, cell) {
  ui.announcing = false;
  app.act("announce", { gameId: game.gameId, turn: game.turn.number, column: cell.column, row: cell.row }, "turn-error");
}

// --------------------------------------------------------------------------- sheets

function sheets(game) {
  if (!game.sheets.length) return null;
  const grid = app.state.catalog.grids.find((g) => g.id === game.settings.grid);
  const mine = isMine(game);
  // The player's own sheet first: on a phone it is the one under the dice.
  const own = (sheet) => (sheet.members || [sheet.playerId]).includes(app.state.me);
  const ordered = [...game.sheets.filter(own), ...game.sheets.filter((sheet) => !own(sheet))];
  return ordered.map((sheet) => {
    const members = sheet.members || [sheet.playerId];
    const forThisSheet = game.turn && members.includes(game.turn.playerId);
    const turn = forThisSheet
      ? { ...game.turn, pending: ui.choice ? ui.choice.cell : game.turn.pending, hinted: hintedCell(game) }
      : null;
    const title = members.map((id) => nameOf(game, id)).join(" & ");
    const table = sheetTable({
      sheet, grid, columns: Object.keys(sheet.totals), title, turn,
      onCell: forThisSheet && mine && !ui.choice ? (cell) => choose(game, cell) : null,
      announcing: forThisSheet && mine && ui.announcing ? announceColumns(game, game.turn) : null,
      onAnnounce: (cell) => announce(game, cell),
    });
    return dress(table, { sheet: sheet.skin, effect: sheet.columnEffect }); // its owner's looks (E5)
  });
}

// --------------------------------------------------------------------------- offer, result, replay

function offer(game) {
  if (!game.finishOffer) return null;
  if (game.finishOffer !== app.state.me) {
    return h("p", { class: "hint" }, t("{player} is offered to finish their sheet.", { player: nameOf(game, game.finishOffer) }));
  }
  const answer = (accept) => app.act("finish_sheet", { gameId: game.gameId, accept }, "offer-error");
  return h("div", { class: "offer", id: "finish-offer" },
    game.finishCounts === false
      ? h("p", { id: "finish-uncounted" }, t("You are the last player left, but you had played under half of the turns: the game will be cancelled whether you finish your sheet or not (nothing is recorded or paid). Play on for practice, or end it now?"))
      : h("p", {}, t("You are the last player left. Finish your sheet alone (the result is recorded), or end the game now with your win?")),
    h("button", { id: "finish-yes", class: "primary", onclick: () => answer(true) }, t("Finish my sheet")),
    h("button", { id: "finish-no", onclick: () => answer(false) }, t("End now")),
    h("p", { class: "error", id: "offer-error", role: "alert" }));
}

function result(game) {
  if (game.status !== "finished" && game.status !== "cancelled") return null;
  const winners = game.winners.map((id) => nameOf(game, id));
  const ranking = [...game.sheets].sort((a, b) => b.total - a.total).map((sheet) =>
    h("li", {}, (sheet.members || [sheet.playerId]).map((id) => nameOf(game, id)).join(" & "), `: ${sheet.total}`));
  return h("div", { class: "result", id: "result" },
    h("h3", {}, game.status === "cancelled" ? t("Game cancelled") : winners.includes(nameOf(game, app.state.me)) ? t("You win!") : t("Game over")),
    winners.length ? h("p", { id: "winners" }, t("Winner: {players}", { players: winners.join(", ") })) : null,
    game.outcome ? h("p", { class: "outcome", dataset: { outcome: game.outcome } }, outcomeWords()[game.outcome] || game.outcome) : null,
    h("ol", { class: "ranking" }, ranking));
}

// --------------------------------------------------------------------------- chat

export function renderChat(messages, game) {
  const list = byId("chat-messages");
  const clubOf = (playerId) => game?.seats?.find((seat) => seat.playerId === playerId)?.club;
  fill(list, messages.map((m) => h("li", { class: m.spectator ? "spectator" : "" },
    h("span", { class: "sender" }, m.nickname || nameOf(game, m.sender)),
    clubOf(m.sender) ? [" ", tagBadge(clubOf(m.sender))] : null, // the seat's, as they sat (C1)
    m.spectator ? h("span", { class: "badge" }, t("watching")) : null,
    ": ", h("span", { class: "text" }, m.text))));
  list.scrollTop = list.scrollHeight;
}

// --------------------------------------------------------------------------- clocks, keys

export function tick() {
  const now = Date.now();
  for (const element of document.querySelectorAll(".countdown[data-deadline]")) {
    const left = Math.max(0, new Date(element.dataset.deadline).getTime() - now);
    const seconds = Math.ceil(left / 1000);
    element.textContent = seconds >= 60 ? `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}` : t("{seconds} s", { seconds });
    element.classList.toggle("urgent", left <= 5000);
  }
}
setInterval(tick, 250);

function onKey(event) {
  const game = app?.state.game;
  if (!game || byId("game").hidden) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  const key = event.key.toLowerCase();
  if (key === "r" || key === " ") {
    const roll = byId("roll");
    if (roll && !roll.disabled) { event.preventDefault(); roll.click(); }
  } else if (/^[1-6]$/.test(key)) {
    const die = document.querySelector(`.die[data-index="${Number(key) - 1}"]`);
    if (die && !die.disabled) { event.preventDefault(); die.click(); }
  } else if (key === "u" || key === "escape") {
    if (ui.choice) { event.preventDefault(); undo(); }
  } else if (key === "a") {
    const button = byId("announce");
    if (button) { event.preventDefault(); button.click(); }
  } else if (key === "h") {
    const button = byId("hint");
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  }
}

// The routed screens (js/router.js), in the order of the top navigation. A screen is a module
// exporting `screen = { id, path, title, nav, public?, show(root, params, ctx), hide?() }` (`title` a
// getter that answers t("..."): said in the page's language when the nav or the tab shows it); add
// one import and one entry per screen.

import { screen as boards } from "./boards.js";
import { screen as club } from "./club.js";
import { screen as clubs } from "./clubs.js";
import { conversationScreen, screen as chats } from "./chats.js";
import { screen as contact } from "./contact.js";
import { screen as database } from "./database.js";
import { screen as games } from "./games.js";
import { screen as moderation } from "./moderation.js";
import { screen as player } from "./player.js";
import { screen as players } from "./players.js";
import { screen as ratings } from "./ratings.js";
import { screen as replay } from "./replay.js";
import { screen as reset } from "./reset.js";
import { screen as settings } from "./settings.js";
import { screen as shop } from "./shop.js";
import { screen as slow } from "./slow.js";
import { screen as tasks } from "./tasks.js";
import { pageScreen as tournament, screen as tournaments } from "./tournaments.js";
import { screen as wallet } from "./wallet.js";

export const screens = [
  games,
  slow,
  players,
  clubs,
  chats,
  boards,
  ratings,
  database,
  tournaments,
  shop,
  wallet,
  tasks,
  settings,
  contact,
  player,
  club,
  tournament,
  conversationScreen,
  replay,
  moderation,
  reset,
];

// The routed screens (js/router.js), in the order of the top navigation. A screen is a module
// exporting `screen = { id, path, title, nav, public?, show(root, params, ctx), hide?() }`; add
// one import and one entry per screen.

import { screen as shop } from "./shop.js";
import { screen as wallet } from "./wallet.js";

export const screens = [
  shop,
  wallet,
];

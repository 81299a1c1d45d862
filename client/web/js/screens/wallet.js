// #/wallet (product E1): the balance, any debt, premium's end, and the ledger of every change,
// newest first, a page at a time (GET /me/ledger's `nextBefore`). Each entry says in words why
// the balance changed, with its date in the player's language.

import { compose, fill, h } from "../dom.js";
import { formatDate, formatNumber, t, tn } from "../i18n.js";

const PAGE = 20;

/** The cosmetics' names by item id (GET /cosmetics, asked once a page). */
let itemNames = null;

async function names(ctx) {
  if (!itemNames) {
    const { items } = await ctx.http("GET", "/cosmetics");
    itemNames = new Map(items.map((item) => [item.itemId, item.name]));
  }
  return itemNames;
}

/** Why a ledger entry changed the balance, in words; `items` names the cosmetics. */
export function describe(entry, items) {
  const detail = entry.detail || "";
  const days = /^premium (\d+) days$/.exec(detail)?.[1];
  switch (entry.reason) {
    case "purchase": return t("Tokens bought");
    case "refund": return t("A purchase refunded: its tokens taken back");
    case "dispute": return t("A purchase disputed: its tokens taken back");
    case "refund_failed": return t("A refund failed: the tokens given back");
    case "dispute_won": return t("A dispute closed: the tokens given back");
    case "win": return t("A game won");
    case "premium":
      return days ? tn("Premium for {count} day", "Premium for {count} days", Number(days)) : t("Premium");
    case "gift_sent":
      return days
        ? tn("Premium for {count} day given to another player", "Premium for {count} days given to another player", Number(days))
        : t("Tokens given to another player");
    case "gift_received": return t("Tokens received as a gift");
    case "nickname": return detail
      ? t("Nickname changed to {nickname}", { nickname: detail })
      : t("Nickname changed");
    case "cosmetic": {
      const item = detail.replace(/^cosmetic /, "");
      return t("Bought: {item}", { item: items?.get(item) || item });
    }
    case "grant": return t("Granted by the operator");
    case "prize": return detail && !detail.includes("/")
      ? t("A tournament's prize") : t("A prize for a place on a board");
    case "tournament_entry": return t("A tournament's entry fee");
    case "tournament_refund": return t("A tournament's entry fee given back");
    case "task": return detail.endsWith(":all") ? t("All the week's tasks done") : t("A weekly task done");
    case "referral": return t("A referral's reward");
    case "badge": return t("A badge's new level");
    case "club_donation": return t("A gift to a club's treasury");
    default: return t("Another change ({reason})", { reason: entry.reason });
  }
}

function entryRow(entry, items) {
  const what = [describe(entry, items)];
  if (entry.reason === "win" && entry.detail) {
    what.push(" ", h("a", { href: `#/replay/${encodeURIComponent(entry.detail)}` }, t("Replay")));
  }
  const change = entry.amount > 0 ? `+${formatNumber(entry.amount)}` : formatNumber(entry.amount);
  return h("tr", { class: `entry ${entry.amount < 0 ? "debit" : "credit"}`, dataset: { seq: String(entry.seq), reason: entry.reason } },
    h("td", { class: "when" }, h("time", { datetime: entry.at }, formatDate(entry.at, "short"))),
    h("td", { class: "what" }, what),
    h("td", { class: "amount" }, change),
    h("td", { class: "after" }, formatNumber(entry.balance),
      entry.debt ? h("span", { class: "debt" }, " ", t("(owing {debt})", { debt: formatNumber(entry.debt) })) : null));
}

/** The wallet's summary: balance, debt, premium's end; its ids start with `prefix`. */
export function summary(wallet, prefix = "wallet", shopLink = true) {
  return h("div", { class: "wallet-summary" },
    // The balance is a node of its own in the sentence (its number is read by id).
    h("p", { class: "balance" }, compose(tn("{balance} token", "{balance} tokens", wallet.balance),
      { balance: h("span", { id: `${prefix}-balance`, class: "tokens" }, formatNumber(wallet.balance)) })),
    wallet.debt
      ? h("p", { class: "error", id: `${prefix}-debt` },
        tn("You owe {count} token: the next tokens you get repay it first.",
          "You owe {count} tokens: the next tokens you get repay it first.", wallet.debt))
      : null,
    h("p", { id: `${prefix}-premium` }, wallet.premium && wallet.premiumUntil
      ? t("Premium until {date}.", { date: formatDate(wallet.premiumUntil, "short") })
      : t("No premium."), shopLink ? [" ", h("a", { href: "#/shop" }, t("Buy premium in the shop"))] : null));
}

export const screen = {
  id: "wallet",
  path: "/wallet",
  get title() { return t("Wallet"); },
  nav: true,
  async show(root, params, ctx) {
    const error = h("p", { class: "error", id: "wallet-error", role: "alert" });
    const rows = h("tbody", { id: "ledger-rows" });
    const more = h("button", { type: "button", id: "ledger-more", hidden: true }, t("Older entries"));
    let before = null;
    let items = null;
    const page = async () => {
      error.textContent = "";
      more.disabled = true;
      try {
        const query = before ? `?limit=${PAGE}&before=${before}` : `?limit=${PAGE}`;
        const answer = await ctx.http("GET", `/me/ledger${query}`);
        for (const entry of answer.entries) rows.append(entryRow(entry, items));
        before = answer.nextBefore;
        more.hidden = !before;
        if (!rows.children.length) rows.append(h("tr", {}, h("td", { colspan: "4", class: "hint" }, t("No changes yet."))));
      } catch (problem) {
        error.textContent = problem.message;
      } finally {
        more.disabled = false;
      }
    };
    more.addEventListener("click", page);
    fill(root, h("h2", {}, t("Wallet")), h("p", { class: "hint" }, t("Loading…")));
    const [wallet] = await Promise.all([
      ctx.http("GET", "/me/wallet"),
      names(ctx).then((found) => { items = found; }).catch(() => undefined), // ids, then
    ]);
    fill(root,
      h("h2", {}, t("Wallet")),
      h("section", { class: "panel" }, summary(wallet)),
      h("section", { class: "panel ledger" },
        h("h3", {}, t("Every change")),
        h("div", { class: "ledger-scroll" },
          h("table", { id: "ledger" },
            h("thead", {}, h("tr", {},
              h("th", { scope: "col" }, t("Date")), h("th", { scope: "col" }, t("What")),
              h("th", { scope: "col" }, t("Change")), h("th", { scope: "col" }, t("Balance")))),
            rows)),
        more, error));
    await page();
  },
};

// #/shop (product E3-E5): premium for tokens (for oneself or as a gift), tokens for money through
// the payment provider's checkout page (a stand-in on the local stack, which has none), gifts of
// tokens to a player by nickname, and the cosmetics with a preview of each, bought and worn here.
// Every change carries an Idempotency-Key (docs/economy.md): a click sent twice is applied once.
// A refusal is shown beside the button (or the field) that caused it, in words.

import { fill, h } from "../dom.js";
import { keyed } from "../keyed.js";
import { formatDate, formatNumber, t, tn } from "../i18n.js";
import { dress } from "../looks.js";
import { summary } from "./wallet.js";

// Each kind's heading is said when the shop is drawn, in the page's language.
const KINDS = [
  ["avatar", "avatar", () => t("Avatar")],
  ["frame", "frame", () => t("Frames")],
  ["dice_skin", "diceSkin", () => t("Dice skins")],
  ["sheet_skin", "sheetSkin", () => t("Sheet skins")],
  ["column_effect", "columnEffect", () => t("Column effects")],
];

/** A button that runs `action` once at a time, its refusal in `slot` (or a field's slot). */
function actionButton(label, attrs, slot, action, fieldSlots = {}) {
  const button = h("button", { type: "button", ...attrs }, label);
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    for (const s of [slot, ...Object.values(fieldSlots)]) s.textContent = "";
    slot.className = "error";
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      (fieldSlots[error.field] || slot).textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

const errorSlot = (id) => h("p", { class: "error", id, role: "alert" });

function note(slot, text) {
  slot.className = "note";
  slot.textContent = text;
}

const money = (cents, currency) =>
  formatNumber(cents / 100, { style: "currency", currency: currency.toUpperCase() });

// --------------------------------------------------------------------------- premium (E3)

function premiumPanel(ctx, premium, refresh, giftFor = "") {
  const giftTo = h("input", { id: "premium-gift-to", autocomplete: "off", maxlength: "30", value: giftFor,
    placeholder: t("a nickname"), "aria-describedby": "premium-gift-to-error" });
  const giftError = errorSlot("premium-gift-to-error");
  const status = premium.premiumUntil && new Date(premium.premiumUntil) > new Date()
    ? t("Your premium runs until {date}.", { date: formatDate(premium.premiumUntil, "short") })
    : t("You have no premium.");
  const rows = premium.offers.map((offer) => {
    const slot = errorSlot(`premium-error-${offer.days}`);
    const buy = keyed((key) => {
      const recipient = giftTo.value.trim();
      return ctx.http("POST", "/me/premium", recipient ? { days: offer.days, giftTo: recipient } : { days: offer.days },
        { "Idempotency-Key": key }).then((answer) => ({ answer, recipient }));
    });
    const button = actionButton(t("Buy"), { id: `premium-buy-${offer.days}`, class: "primary" }, slot, async () => {
      const { answer, recipient } = await buy();
      await refresh();
      const done = document.getElementById(`premium-error-${offer.days}`);
      if (done) {
        note(done, recipient
          ? t("Given to {nickname}: their premium runs until {date}.", { nickname: recipient, date: formatDate(answer.premiumUntil, "short") })
          : t("Bought: your premium runs until {date}.", { date: formatDate(answer.premiumUntil, "short") }));
      }
    }, { giftTo: giftError });
    return h("li", { class: "offer premium-offer", dataset: { days: String(offer.days) } },
      h("span", { class: "offer-name" }, tn("{count} day", "{count} days", offer.days)),
      h("span", { class: "offer-price" }, tn("{count} token", "{count} tokens", offer.price)),
      h("span", { class: "offer-end hint" }, t("for you until {date}", { date: formatDate(offer.endsAt) })),
      button, slot);
  });
  return h("section", { class: "panel", id: "shop-premium" },
    h("h3", {}, t("Premium")),
    h("p", { id: "premium-status" }, status),
    h("p", { class: "hint" }, t("Premium opens every preset (up to 9 columns), three clubs and three slow games. Days bought are added to what is left; when it ends, nothing already started is taken away.")),
    h("label", { class: "field" }, h("span", { class: "label" }, t("As a gift to (leave empty for yourself)")), giftTo, giftError),
    h("ul", { class: "offers" }, rows));
}

// --------------------------------------------------------------------------- tokens for money (E4)

/** What the payment provider's page would do, shown in its place on the local stack. */
function standIn(ctx, offer, recipient, slot, refresh) {
  // The local stack's web server delivers what the provider would send once paid (devstack.web).
  const simulate = keyed(async (key) => fetch("_local/pay", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: await ctx.token() },
    body: JSON.stringify({ offerId: offer.offerId, giftTo: recipient || null, key }),
  }).then(async (answer) => {
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok) throw Object.assign(new Error(data.message || `${answer.status}`), { status: answer.status });
    return data;
  }));
  const simSlot = errorSlot(`simulate-error-${offer.offerId}`);
  return h("div", { class: "stand-in", id: `stand-in-${offer.offerId}`, role: "region", "aria-label": t("Payment page (stand-in)") },
    h("h4", {}, t("Payment page (stand-in)")),
    h("p", {}, recipient
      ? tn("On the live service this opens the payment provider's page to pay {price} for {count} token for {nickname}. The tokens are added once the provider confirms the payment, never before; a cancelled payment changes nothing.",
        "On the live service this opens the payment provider's page to pay {price} for {count} tokens for {nickname}. The tokens are added once the provider confirms the payment, never before; a cancelled payment changes nothing.",
        offer.tokens, { price: money(offer.priceCents, offer.currency), nickname: recipient })
      : tn("On the live service this opens the payment provider's page to pay {price} for {count} token. The tokens are added once the provider confirms the payment, never before; a cancelled payment changes nothing.",
        "On the live service this opens the payment provider's page to pay {price} for {count} tokens. The tokens are added once the provider confirms the payment, never before; a cancelled payment changes nothing.",
        offer.tokens, { price: money(offer.priceCents, offer.currency) })),
    h("p", { class: "hint" }, t("This is the local stack: there is no payment provider here, so no page opened and nothing was charged.")),
    actionButton(t("Simulate the payment (local stack only)"), { id: `simulate-${offer.offerId}` }, simSlot, async () => {
      const answer = await simulate();
      await refresh();
      note(slot, answer.handled === "credited"
        ? tn("The provider's confirmation was simulated: {count} token added.", "The provider's confirmation was simulated: {count} tokens added.", offer.tokens)
        : t("The provider's confirmation was simulated: nothing added ({handled}).", { handled: answer.reason || answer.handled }));
    }),
    simSlot);
}

function offersPanel(ctx, offers, refresh) {
  const rows = offers.map((offer) => {
    const slot = errorSlot(`offer-error-${offer.offerId}`);
    const gift = offer.kind === "gift";
    const giftTo = gift ? h("input", { id: `offer-gift-to-${offer.offerId}`, autocomplete: "off", maxlength: "30",
      placeholder: t("a nickname"), "aria-label": t("Who gets the tokens") }) : null;
    const giftError = gift ? errorSlot(`offer-gift-to-error-${offer.offerId}`) : null;
    const place = h("div", { class: "stand-in-slot" });
    const checkout = keyed((key) => ctx.http("POST", "/me/checkout",
      gift ? { offerId: offer.offerId, giftTo: giftTo.value.trim() } : { offerId: offer.offerId },
      { "Idempotency-Key": key }));
    const free = offer.priceCents === 0;
    const button = actionButton(free ? t("Get it free") : t("Buy"), { id: `offer-buy-${offer.offerId}`, class: "primary" }, slot, async () => {
      fill(place);
      try {
        const answer = await checkout();
        if (answer.url) {
          note(slot, t("Opening the payment page…"));
          location.assign(answer.url);
        } else if (answer.credited) {
          await refresh();
          note(document.getElementById(`offer-error-${offer.offerId}`) || slot,
            tn("{count} token added: your balance is {balance}.", "{count} tokens added: your balance is {balance}.",
              answer.credited.tokens, { balance: formatNumber(answer.credited.balance) }));
        }
      } catch (error) {
        if (error.code === "payment_provider_unavailable" && ctx.state.config?.local) {
          fill(place, standIn(ctx, offer, gift ? giftTo.value.trim() : null, slot, refresh));
          return;
        }
        throw error;
      }
    }, gift ? { giftTo: giftError } : {});
    const price = free
      ? t("Free")
      : money(offer.priceCents, offer.currency);
    return h("li", { class: `offer token-offer ${offer.kind}`, dataset: { offer: offer.offerId } },
      h("span", { class: "offer-name" }, offer.name),
      h("span", { class: "offer-price" },
        offer.regularPriceCents ? h("s", { class: "hint" }, money(offer.regularPriceCents, offer.currency)) : null,
        offer.regularPriceCents ? " " : null, price),
      offer.validUntil ? h("span", { class: "offer-end hint" }, t("until {date}", { date: formatDate(offer.validUntil, "short") })) : null,
      gift ? h("label", { class: "field" }, h("span", { class: "label" }, t("For")), giftTo, giftError) : null,
      button, slot, place);
  });
  return h("section", { class: "panel", id: "shop-tokens" },
    h("h3", {}, t("Tokens")),
    h("p", { class: "hint" }, t("Paid on the payment provider's page; the tokens arrive once it confirms the payment.")),
    h("ul", { class: "offers" }, rows.length ? rows : h("li", { class: "hint" }, t("Nothing on sale now."))));
}

// --------------------------------------------------------------------------- gifts (S2)

function giftPanel(ctx, refresh, giftFor = "") {
  const nickname = h("input", { id: "gift-nickname", autocomplete: "off", maxlength: "30", required: true, value: giftFor });
  const amount = h("input", { id: "gift-amount", type: "number", min: "1", step: "1", inputmode: "numeric", required: true });
  const slots = { nickname: errorSlot("gift-nickname-error"), amount: errorSlot("gift-amount-error") };
  const slot = errorSlot("gift-error");
  const send = keyed((key) => ctx.http("POST", "/me/gifts",
    { nickname: nickname.value.trim(), amount: Number(amount.value) }, { "Idempotency-Key": key }));
  return h("section", { class: "panel", id: "shop-gift" },
    h("h3", {}, t("Give tokens")),
    h("div", { class: "gift-form" },
      h("label", { class: "field" }, h("span", { class: "label" }, t("To (nickname)")), nickname, slots.nickname),
      h("label", { class: "field" }, h("span", { class: "label" }, t("Tokens")), amount, slots.amount),
      actionButton(t("Give"), { id: "gift-send" }, slot, async () => {
        const to = nickname.value.trim();
        const given = Number(amount.value);
        await send();
        await refresh();
        note(document.getElementById("gift-error") || slot,
          tn("{count} token given to {nickname}.", "{count} tokens given to {nickname}.", given, { nickname: to }));
      }, slots)),
    slot);
}

// --------------------------------------------------------------------------- cosmetics (E5)

/** A small sample of what the item looks like, worn as the game wears it (css/looks.css), in
 * sample-* classes of its own: no game selector (nor a test's) ever counts a preview. */
function preview(item, nickname) {
  const box = (child) => h("div", { class: "preview", "aria-hidden": "true" }, child);
  switch (item.kind) {
    case "dice_skin":
      return box(dress(h("div", { class: "sample-dice" }, ["⚃", "⚄", "⚅"].map((pips) =>
        h("span", { class: "sample-die" }, pips))), { dice: item.itemId }));
    case "sheet_skin":
    case "column_effect": {
      const looks = item.kind === "sheet_skin" ? { sheet: item.itemId } : { effect: item.itemId };
      const row = (label, a, b) => h("tr", {}, h("th", { scope: "row" }, label),
        h("td", { class: a ? "sample-written" : "" }, a), h("td", { class: b ? "sample-written" : "" }, b));
      return box(dress(h("div", { class: "sample-sheet" }, h("table", {}, h("tbody", {},
        row("1", "3", ""), row("2", "", "8"), row("3", "12", "9")))), looks));
    }
    case "frame":
      return box(dress(h("span", { class: "sample-seat" }, nickname || t("You")), { frame: item.itemId }));
    default:
      return box(h("span", { class: "sample-avatar" }, (nickname || "?").slice(0, 1).toUpperCase()));
  }
}

function priceText(item) {
  if (!item.price) return t("Free");
  if (item.days === null || item.days === undefined) return tn("{count} token, for life", "{count} tokens, for life", item.price);
  // Two counts: each a phrase of its own, in the sentence as placeholders.
  return t("{price} for {days}", { price: tn("{count} token", "{count} tokens", item.price), days: tn("{count} day", "{count} days", item.days) });
}

function cosmeticsPanel(ctx, catalogue, wardrobe, nickname, refresh) {
  const owned = new Map(wardrobe.owned.map((entry) => [entry.itemId, entry]));
  const groups = KINDS.map(([kind, equippedKey, title]) => {
    const items = catalogue.filter((item) => item.kind === kind);
    if (!items.length) return null;
    const worn = wardrobe.equipped[equippedKey] || null;
    const cards = items.map((item) => {
      const slot = errorSlot(`cosmetic-error-${item.itemId}`);
      const mine = owned.get(item.itemId);
      const valid = !item.price || Boolean(mine?.valid);
      const forLife = item.days === null || item.days === undefined;
      const wearing = worn === item.itemId;
      let state = null;
      if (wearing && mine?.until) state = t("Worn, yours until {date}", { date: formatDate(mine.until, "short") });
      else if (wearing) state = t("Worn");
      else if (mine?.valid && mine.until) state = t("Yours until {date}", { date: formatDate(mine.until, "short") });
      else if (mine?.valid) state = t("Yours");
      else if (mine?.until) state = t("Ended on {date}", { date: formatDate(mine.until, "short") });
      const buy = keyed((key) => ctx.http("POST", "/me/cosmetics", { itemId: item.itemId }, { "Idempotency-Key": key }));
      const buttons = [];
      if (item.price && !(forLife && mine)) {
        const label = mine?.valid ? tn("Add {count} day", "Add {count} days", item.days) : t("Buy");
        buttons.push(actionButton(label, { id: `cosmetic-buy-${item.itemId}`, class: mine?.valid ? "" : "primary" }, slot, async () => {
          await buy();
          await refresh();
        }));
      }
      if (valid && kind !== "avatar") {
        buttons.push(actionButton(wearing ? t("Take off") : t("Wear"), { id: `cosmetic-wear-${item.itemId}` }, slot, async () => {
          await ctx.http("PATCH", "/me/cosmetics/equipped", { kind, itemId: wearing ? null : item.itemId });
          await refresh();
        }));
      }
      return h("li", { class: `cosmetic${wearing ? " worn" : ""}`, dataset: { item: item.itemId } },
        preview(item, nickname),
        h("span", { class: "cosmetic-name" }, item.name),
        h("span", { class: "cosmetic-price hint" }, priceText(item)),
        state ? h("span", { class: "cosmetic-state" }, state) : null,
        h("span", { class: "cosmetic-actions" }, buttons),
        slot);
    });
    return [h("h4", {}, title()), h("ul", { class: "cosmetics", dataset: { kind } }, cards)];
  });
  return h("section", { class: "panel", id: "shop-cosmetics" },
    h("h3", {}, t("Cosmetics")),
    h("p", { class: "hint" }, t("Your sheet skin and column effect show on your sheet, your dice skin on the dice when it is your turn, your frame around your name: every player at the table sees them.")),
    groups);
}

// --------------------------------------------------------------------------- the screen

export const screen = {
  id: "shop",
  path: "/shop",
  get title() { return t("Shop"); },
  nav: true,
  async show(root, params, ctx) {
    const head = h("section", { class: "panel", id: "shop-wallet" });
    const parts = {
      premium: h("div"), tokens: h("div"), gift: h("div"), cosmetics: h("div"),
    };
    const returned = params.query?.get("checkout");
    // #/shop?gift=<nickname>: a player's page sends here to give them tokens or premium (S2).
    const giftFor = params.query?.get("gift") || "";
    const back = returned === "success"
      ? h("p", { class: "note", id: "checkout-return", role: "status" }, t("Thank you: your tokens arrive as soon as the payment provider confirms the payment."))
      : returned === "cancelled"
        ? h("p", { class: "note", id: "checkout-return", role: "status" }, t("The payment was cancelled: nothing was charged."))
        : null;
    fill(root, h("h2", {}, t("Shop")), back, head, parts.premium, parts.tokens, parts.gift, parts.cosmetics);
    // The nickname the frames' previews show (GET /me), once a visit.
    const nicknameOf = ctx.http("GET", "/me").then((me) => me.nickname).catch(() => null);
    let offersDrawn = false;
    let giftDrawn = false;
    // Everything that a change moves: the balance, premium's end, the wardrobe. The token offers
    // and the gift form stay (what a player typed there is kept).
    const refresh = async () => {
      const [wallet, premium, catalogue, wardrobe, offers, nickname] = await Promise.all([
        ctx.http("GET", "/me/wallet"),
        ctx.http("GET", "/me/premium"),
        ctx.http("GET", "/cosmetics"),
        ctx.http("GET", "/me/cosmetics"),
        offersDrawn ? null : ctx.http("GET", "/offers"),
        nicknameOf, // asked once a visit, beside the rest
      ]);
      fill(head, summary(wallet, "shop", false), h("p", {}, h("a", { href: "#/wallet" }, t("Every change in your wallet"))));
      const keepGift = document.getElementById("premium-gift-to")?.value || "";
      fill(parts.premium, premiumPanel(ctx, premium, refresh, giftFor));
      document.getElementById("premium-gift-to").value = keepGift;
      if (!offersDrawn) {
        fill(parts.tokens, offersPanel(ctx, offers.offers, refresh));
        offersDrawn = true;
      }
      if (!giftDrawn) {
        fill(parts.gift, giftPanel(ctx, refresh, giftFor));
        giftDrawn = true;
      }
      fill(parts.cosmetics, cosmeticsPanel(ctx, catalogue.items, wardrobe, nickname, refresh));
    };
    await refresh();
  },
};

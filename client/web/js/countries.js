// A country's flag and name for the page (product A4): the flag is the code's two regional
// indicator letters (every system draws them as the flag, or as the letters), the name the
// browser's own in the page's language (Intl.DisplayNames); no list of names to keep.

import { currentLanguage, fromIntl } from "./i18n.js";

/** "HR" -> "🇭🇷"; anything but two letters A-Z -> "". */
export function flagOf(code) {
  if (!/^[A-Z]{2}$/.test(code || "")) return "";
  return String.fromCodePoint(...[...code].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

/** "HR" -> "Croatia" (in the page's language); the code itself when the browser has no name. */
export function countryName(code) {
  try {
    const language = currentLanguage();
    if (!namers.has(language)) namers.set(language, new Intl.DisplayNames([language], { type: "region" }));
    return fromIntl(namers.get(language).of(code) || code);
  } catch {
    return code;
  }
}

const namers = new Map(); // language -> Intl.DisplayNames

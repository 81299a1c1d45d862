"""The axe-core check of a screen, for every browser test to call (issue 28: no serious or
critical violation on any screen).

    from tests.e2e.browser.accessibility import assert_accessible

    page.goto(f"{web_stack.web_url}#/wallet")
    expect(page.locator("#wallet")).to_be_visible()   # the screen drawn first
    assert_accessible(page, "wallet")

axe-core (`vendor/axe.min.js`, npm's axe-core, pinned: vendor/README.md) is put into the page by
the test, never served to players. It checks what is in the page at that moment, in the theme
the page shows (open the page with ``new_page(color_scheme="dark")`` for the dark one); hidden
elements (another screen's ``<section hidden>``) are not checked. Any violation of impact
serious or critical fails the test, with each rule, its help and the elements it found.
"""

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE_SCRIPT = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
FAILING_IMPACTS = ("serious", "critical")
# The rules of WCAG 2.x A and AA, and axe's best practices (landmarks, headings, names).
RULE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")

_RUN = """
async ([tags, exclude]) => {
  const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) }
                                 : document;
  const found = await axe.run(context, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations", "incomplete"],
  });
  const node = (each) => ({
    impact: each.impact, target: each.target.join(" "), html: each.html.slice(0, 160),
    summary: each.failureSummary,
  });
  const rules = found.violations.map((rule) => ({
    id: rule.id, impact: rule.impact, help: rule.help, helpUrl: rule.helpUrl,
    nodes: rule.nodes.map(node),
  }));
  // axe cannot tell whether one or two characters are text (a die's face, a cell's score), so
  // it leaves their contrast "incomplete" when it is too low: here that fails too.
  const short = found.incomplete.filter((rule) => rule.id === "color-contrast").flatMap((rule) =>
    rule.nodes.filter((each) => each.any.some((check) =>
      check.data && check.data.messageKey === "shortTextContent"
      // (a ratio of 0 with no colours is one axe could not measure, e.g. under a sticky panel:
      // undecided, as axe's other incomplete contrasts are)
      && check.data.fgColor && check.data.bgColor
      && check.data.contrastRatio < parseFloat(check.data.expectedContrastRatio))));
  if (short.length) rules.push({
    id: "color-contrast-short-text", impact: "serious",
    help: "Short text (a score, a digit) must have the contrast of any text",
    helpUrl: "https://dequeuniversity.com/rules/axe/4.14/color-contrast",
    nodes: short.map((each) => ({ ...node(each), summary: each.any.map((check) =>
      `contrast ${check.data.contrastRatio} (${check.data.fgColor} on ${check.data.bgColor}),`
      + ` expected ${check.data.expectedContrastRatio}`).join("; ") })),
  });
  return rules;
}
"""


def axe_violations(page: Page, *, exclude: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Every violation axe-core finds in the page as it is now (all impacts), each with its
    rule `id`, `impact`, `help`, `helpUrl` and `nodes` (target, html, summary); the elements
    matching the CSS selectors of `exclude` are left out."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_SCRIPT))
    found: list[dict[str, Any]] = page.evaluate(_RUN, [list(RULE_TAGS), list(exclude)])
    return found


def describe(violations: list[dict[str, Any]]) -> str:
    """The violations as lines to read in a failed test's message."""
    lines: list[str] = []
    for rule in violations:
        lines.append(f"- {rule['id']} ({rule['impact']}): {rule['help']} <{rule['helpUrl']}>")
        for node in rule["nodes"]:
            lines.append(f"    at {node['target']}: {node['html']}")
            summary = " ".join(str(node["summary"] or "").split())
            if summary:
                lines.append(f"      {summary}")
    return "\n".join(lines)


def assert_accessible(page: Page, screen_name: str, *, exclude: tuple[str, ...] = ()) -> None:
    """Fails when axe-core finds a serious or critical violation in the page as it is now,
    naming `screen_name` and listing each rule with the elements that break it."""
    serious = [
        rule for rule in axe_violations(page, exclude=exclude) if rule["impact"] in FAILING_IMPACTS
    ]
    theme = page.evaluate(
        "document.documentElement.dataset.theme"
        " || (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')"
    )
    assert not serious, (
        f"the {screen_name} screen ({theme} theme, {page.viewport_size}) has "
        f"{len(serious)} serious or critical accessibility violation(s):\n{describe(serious)}"
    )

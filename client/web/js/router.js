// One URL per screen: the part after "#" is the screen's path ("#/players/ana"), so links, back
// and reload work on any static host with no rewrite rule (decision: hash routes). A route is a
// path pattern with ":names"; the first that matches wins.

const routes = [];

/** Adds a route: `pattern` like "/players/:nickname", `open(params)` shows its screen. */
export function route(pattern, open) {
  const names = [];
  const source = pattern.replace(/:(\w+)/g, (_, name) => {
    names.push(name);
    return "([^/]+)";
  });
  routes.push({ pattern, regex: new RegExp(`^${source}/?$`), names, open });
}

/** The path the address bar names now ("/" when there is none). */
export function currentPath() {
  const path = location.hash.replace(/^#/, "");
  return path.startsWith("/") ? path : "/";
}

/** The route and its parameters for `path` (the query after "?" is in params.query). */
export function match(path) {
  const [bare, query = ""] = path.split("?");
  for (const candidate of routes) {
    const found = candidate.regex.exec(bare);
    if (!found) continue;
    const params = { query: new URLSearchParams(query) };
    candidate.names.forEach((name, index) => {
      params[name] = decodeURIComponent(found[index + 1]);
    });
    return { route: candidate, params };
  }
  return null;
}

/** Goes to `target` ("#/boards" or "/boards"): a new history entry, then its screen. */
export function navigate(target) {
  const hash = target.startsWith("#") ? target : `#${target}`;
  if (location.hash === hash) dispatch();
  else location.hash = hash;
}

/** Names the screen on show in the address bar without opening it again: a new history entry
 * when it differs (so that back returns to the screen before), none when it is already there. */
export function pushPath(path) {
  const hash = `#${path}`;
  if (location.hash !== hash && !(path === "/" && location.hash === "")) {
    history.pushState(history.state, "", hash);
  }
}

let fallback = () => {};

/** Shows the screen of the address bar's path; an unknown path goes to `fallback`. */
export function dispatch() {
  const found = match(currentPath());
  if (found) found.route.open(found.params);
  else fallback();
}

/** Starts listening to the address bar. */
export function start(onUnknown) {
  fallback = onUnknown;
  window.addEventListener("hashchange", dispatch);
}

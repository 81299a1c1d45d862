// The HTTP side: the stack's configuration, signing in (Cognito's own JSON API, as a deployed
// client calls it), registering through the accounts' HTTP API, and the local stack's shortcut
// for local players.

let config = null;

export async function loadConfig() {
  if (config) return config;
  const answer = await fetch("config.json", { cache: "no-store" });
  if (!answer.ok) throw new Error(`config.json: ${answer.status}`);
  config = await answer.json();
  return config;
}

export class ApiError extends Error {
  constructor(message, { code = null, field = null } = {}) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

/** Cognito's JSON API (InitiateAuth): no SDK needed for a password sign-in. */
async function cognito(target, body) {
  const { cognito: settings } = await loadConfig();
  const endpoint = settings.endpoint || `https://cognito-idp.${settings.region}.amazonaws.com/`;
  let answer;
  try {
    answer = await fetch(endpoint, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": `AWSCognitoIdentityProviderService.${target}`,
      },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError("the sign-in service cannot be reached");
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    // A refusal of our PostAuthentication trigger reads "...failed with error <code>: <text>."
    const text = String(data.message || data.Message || "sign-in refused");
    const ours = /error ([a-z_]+): (.*)$/.exec(text);
    if (ours) throw new ApiError(ours[2].replace(/\.$/, ""), { code: ours[1] });
    throw new ApiError(text, { code: data.__type || null });
  }
  return data;
}

export async function logIn(email, password) {
  const { cognito: settings } = await loadConfig();
  const data = await cognito("InitiateAuth", {
    ClientId: settings.clientId,
    AuthFlow: "USER_PASSWORD_AUTH",
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  const result = data.AuthenticationResult || {};
  if (!result.IdToken) throw new ApiError("the sign-in needs a step this client does not know");
  return { token: result.IdToken, refreshToken: result.RefreshToken || null };
}

export async function refresh(refreshToken) {
  const { cognito: settings } = await loadConfig();
  const data = await cognito("InitiateAuth", {
    ClientId: settings.clientId,
    AuthFlow: "REFRESH_TOKEN_AUTH",
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
  return data.AuthenticationResult.IdToken;
}

async function http(method, path, body, token) {
  const { httpApiUrl } = await loadConfig();
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = token;
  let answer;
  try {
    answer = await fetch(`${httpApiUrl.replace(/\/$/, "")}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("the server cannot be reached");
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = data.error || {};
    throw new ApiError(error.message || `${answer.status} ${answer.statusText}`, error);
  }
  return data;
}

/** A1 (and E7: `referralCode`, from an inviter's link, sent only when there is one). */
export const register = (nickname, email, password, referralCode = "") =>
  http("POST", "/accounts", { nickname, email, password, ...(referralCode ? { referralCode } : {}) });

export const resendVerification = (email) => http("POST", "/accounts/verification", { email });

/** S4: the signed-in player's wins, losses and ties against a player, and their meetings. */
export const headToHead = (nickname, token) =>
  http("GET", `/players/${encodeURIComponent(nickname)}/head-to-head`, undefined, token);

/** E6: the week's tasks with the player's progress, and a claim. */
export const tasks = (token) => http("GET", "/me/tasks", undefined, token);
export const claimTask = (taskId, week, token) =>
  http("POST", `/me/tasks/${encodeURIComponent(taskId)}/claim`, { week }, token);

/** E7: the player's referral code, link and invitees. E8: the badges (paying levels due). */
export const referral = (token) => http("GET", "/me/referral", undefined, token);
export const badges = (token) => http("GET", "/me/badges", undefined, token);

/** The local stack only: a local player's token, made on the spot. */
export async function localToken(name) {
  const answer = await fetch("_local/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new ApiError(data.message || `${answer.status}`, { field: "name" });
  return data.token;
}

/** The claims of a JWT, read (not verified: the server verifies) to know who "you" are. */
export function claims(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(part + "=".repeat((4 - (part.length % 4)) % 4)));
  } catch {
    return {};
  }
}

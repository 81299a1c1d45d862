// The HTTP side: the stack's configuration, signing in (by SRP with amazon-cognito-identity-js,
// vendored: the password never leaves the page), an authenticator app (Cognito's JSON API with
// the access token), registering through the accounts' HTTP API, and the local stack's shortcut
// for local players.

import { currentLanguage, t } from "./i18n.js";

let config = null;

export async function loadConfig() {
  if (config) return config;
  const answer = await fetch("config.json", { cache: "no-store" });
  if (!answer.ok) throw new Error(`config.json: ${answer.status}`);
  config = await answer.json();
  return config;
}

export class ApiError extends Error {
  constructor(message, { code = null, field = null, status = null } = {}) {
    super(message);
    this.code = code;
    this.field = field;
    this.status = status;
  }
}

/** Cognito's JSON API (a refresh, the authenticator app's calls). */
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
    throw new ApiError(t("the sign-in service cannot be reached"));
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    throw cognitoError(data.message || data.Message, data.__type);
  }
  return data;
}

// Cognito's own refusals are English whatever the page speaks: the ones a player meets signing
// in are said in the page's language (the others keep Cognito's words).
const COGNITO_WORDS = {
  NotAuthorizedException: () => t("wrong e-mail or password"),
  UserNotConfirmedException: () => t("this address is not verified yet: follow the link in the mail we sent"),
  CodeMismatchException: () => t("that code is not the app's"),
};

function cognitoError(message, type) {
  // A refusal of our PostAuthentication trigger reads "...failed with error <code>: <text>."
  const text = String(message || t("sign-in refused"));
  const ours = /error ([a-z_]+): (.*)$/.exec(text);
  if (ours) return new ApiError(ours[2].replace(/\.$/, ""), { code: ours[1] });
  const code = (type || "").split("#").pop() || null;
  const words = COGNITO_WORDS[code];
  // A refused refresh is a NotAuthorizedException too: only a sign-in's is a wrong password.
  const said = words && !/token/i.test(text) ? words() : text;
  return new ApiError(said, { code });
}

// The library keeps nothing of its own: the page keeps the tokens (main.js, localStorage).
const noStorage = { setItem() {}, getItem() { return null; }, removeItem() {}, clear() {} };

/**
 * A2: sign-in by SRP (USER_SRP_AUTH, then PASSWORD_VERIFIER). `askCode` is called when the
 * account has an authenticator app (SOFTWARE_TOKEN_MFA) and answers its 6-digit code.
 */
export async function logIn(email, password, askCode) {
  const { cognito: settings } = await loadConfig();
  const sdk = globalThis.AmazonCognitoIdentity;
  if (!sdk) throw new ApiError(t("the sign-in library did not load"));
  const pool = new sdk.CognitoUserPool({
    UserPoolId: settings.userPoolId,
    ClientId: settings.clientId,
    endpoint: settings.endpoint || undefined,
    Storage: noStorage,
  });
  const user = new sdk.CognitoUser({ Username: email, Pool: pool, Storage: noStorage });
  const details = new sdk.AuthenticationDetails({ Username: email, Password: password });
  return new Promise((resolve, reject) => {
    const callbacks = {
      onSuccess: (session) => resolve({
        token: session.getIdToken().getJwtToken(),
        accessToken: session.getAccessToken().getJwtToken(),
        refreshToken: session.getRefreshToken().getToken() || null,
      }),
      onFailure: (error) => reject(error instanceof ApiError ? error : cognitoError(error.message, error.code)),
      totpRequired: async () => {
        try {
          user.sendMFACode(await askCode(), callbacks, "SOFTWARE_TOKEN_MFA");
        } catch (error) {
          reject(error);
        }
      },
      mfaRequired: () => reject(new ApiError(t("the sign-in needs a step this client does not know"))),
      newPasswordRequired: () => reject(new ApiError(t("the sign-in needs a step this client does not know"))),
    };
    user.authenticateUser(details, callbacks);
  });
}

/** A2: an authenticator app for the account (TOTP): its secret to enter in the app. */
export async function addAuthenticator(accessToken) {
  const data = await cognito("AssociateSoftwareToken", { AccessToken: accessToken });
  return data.SecretCode;
}

/** The app's first code proves it was set up; from then on a sign-in asks for a code. */
export async function confirmAuthenticator(accessToken, code) {
  const data = await cognito("VerifySoftwareToken", {
    AccessToken: accessToken, UserCode: code, FriendlyDeviceName: "authenticator",
  });
  if (data.Status !== "SUCCESS") throw new ApiError(t("that code is not the app's"), { code: "CodeMismatchException" });
  await cognito("SetUserMFAPreference", {
    AccessToken: accessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
}

/** The account's sign-in asks for no code any more. */
export async function removeAuthenticator(accessToken) {
  await cognito("SetUserMFAPreference", {
    AccessToken: accessToken,
    SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false },
  });
}

export async function refresh(refreshToken) {
  const { cognito: settings } = await loadConfig();
  const data = await cognito("InitiateAuth", {
    ClientId: settings.clientId,
    AuthFlow: "REFRESH_TOKEN_AUTH",
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
  return { token: data.AuthenticationResult.IdToken, accessToken: data.AuthenticationResult.AccessToken };
}

/** The HTTP API's address of `path`, for a link out of the page (the public page, R5). */
export async function apiUrl(path) {
  const { httpApiUrl } = await loadConfig();
  return `${httpApiUrl.replace(/\/$/, "")}${path}`;
}

/** A call of the HTTP API: JSON in and out; a refusal throws an ApiError with its code and field.
 * `extra` adds headers (an `Idempotency-Key` on the economy's changes). */
export async function request(method, path, body, token, extra = {}) {
  const { httpApiUrl } = await loadConfig();
  // The server answers in the page's language (its refusals' sentences; a sign-up's account).
  const headers = { "Content-Type": "application/json", "Accept-Language": currentLanguage(), ...extra };
  if (token) headers.Authorization = token;
  let answer;
  try {
    answer = await fetch(`${httpApiUrl.replace(/\/$/, "")}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(t("the server cannot be reached"));
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const error = data.error || {};
    throw new ApiError(error.message || `${answer.status} ${answer.statusText}`,
      { ...error, status: answer.status });
  }
  return data;
}

const http = request;

/** A1 (and E7: `referralCode`, from an inviter's link, sent only when there is one). */
export const register = (nickname, email, password, referralCode = "") =>
  http("POST", "/accounts", { nickname, email, password, ...(referralCode ? { referralCode } : {}) });

export const resendVerification = (email) => http("POST", "/accounts/verification", { email });

/** S4: the signed-in player's wins, losses and ties against a player, and their meetings. */
export const headToHead = (nickname, token) =>
  http("GET", `/players/${encodeURIComponent(nickname)}/head-to-head`, undefined, token);

/** A2: whether `token` still opens the API (the HTTP authorizer refuses a token of a sign-in
 * older than the player's latest, or of an account signed out everywhere, with 401 or 403). */
export async function stillSignedIn(token) {
  try {
    await http("GET", "/me", undefined, token);
    return true;
  } catch (error) {
    return !(error.status === 401 || error.status === 403);
  }
}

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

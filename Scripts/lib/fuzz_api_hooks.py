"""Schemathesis hooks for Scripts/fuzz-api (loaded by schemathesis as SCHEMATHESIS_HOOKS=fuzz_api_hooks).

Runs inside schemathesis's own virtualenv, so it uses only the standard library, schemathesis and
requests. Scripts/fuzz-api has already started moa-server and made the users, accounts, a
transfer and a favourite; it describes them in the JSON file named by $MOA_FUZZ_API_STATE.

Who is logged in for what (every case carries `Authorization: Bearer <access token>`):
  - `main`, for every operation but the three below: logged in once, again only if a request is
    answered 401 (schemathesis's reactive re-authentication);
  - `logout`, for logOut only: a new session for every case, because a logout (and
    `"everywhere": true` all the more) revokes the session it is sent with;
  - `password`, for changePassword only: wrong current passwords count toward that address's
    login throttle (5 lock it), which must never lock `main` out;
  - `delete`, for deleteUser only, so that an accepted deletion could never take `main` with it.

Real values instead of random ones, in about a third of the cases (chosen by a checksum of the
generated value, not at random, so that derandomized data stays derandomized): the `main` user's
account in `{account}` and a transfer's `from`, its second account as a transfer's `to` or a
favourite's number, the transfer and favourite made before the run, a fresh refresh token of the
`logout` user, the e-mail addresses of an unverified user and of the reset user, and the `login`
user's address (mostly with its password) in a login. Without them almost every case would stop at
404, and the routes' success paths (and the state they build) would go untested. The checks are
not touched.
"""

from __future__ import annotations

import json
import os
import zlib

import requests
import schemathesis

with open(os.environ["MOA_FUZZ_API_STATE"], encoding="utf-8") as _file:
    STATE = json.load(_file)
BASE = STATE["base_url"]
USERS = STATE["users"]


def _log_in(role: str) -> dict:
    user = USERS[role]
    response = requests.post(
        f"{BASE}/v1/auth/login", json={"email": user["email"], "password": user["password"]}, timeout=30
    )
    if response.status_code != 200:
        raise RuntimeError(f"login of the {role} user answered {response.status_code}: {response.text[:300]}")
    return response.json()


def _bearer(case, token: str) -> None:
    case.headers = case.headers or {}
    case.headers["Authorization"] = f"Bearer {token}"


SPECIAL = ["logOut", "changePassword", "deleteUser"]


@schemathesis.auth(refresh_interval=600).skip_for(operation_id=SPECIAL)
class MainUser:
    def get(self, case, context):
        return _log_in("main")["access_token"]

    def set(self, case, data, context):
        _bearer(case, data)


@schemathesis.auth(refresh_interval=None).apply_to(operation_id="logOut")
class LogoutUser:
    def get(self, case, context):
        return _log_in("logout")["access_token"]

    def set(self, case, data, context):
        _bearer(case, data)


@schemathesis.auth(refresh_interval=600).apply_to(operation_id="changePassword")
class PasswordUser:
    def get(self, case, context):
        return _log_in("password")["access_token"]

    def set(self, case, data, context):
        _bearer(case, data)


@schemathesis.auth(refresh_interval=600).apply_to(operation_id="deleteUser")
class DeleteUser:
    def get(self, case, context):
        return _log_in("delete")["access_token"]

    def set(self, case, data, context):
        _bearer(case, data)


def _pick(value, every: int) -> bool:
    """True for about one value in `every`, the same for the same generated value on every run."""
    return zlib.crc32(repr(value).encode("utf-8", "surrogatepass")) % every == 0


_last_refresh_token: list[str] = []


@schemathesis.hook
def before_call(context, case, kwargs):
    operation_id = case.operation.definition.raw.get("operationId")
    path = case.path_parameters
    body = case.body
    if isinstance(path, dict) and "account" in path and _pick(path["account"], 3):
        path["account"] = STATE["account"]
    if operation_id == "sendTransfer" and isinstance(body, dict):
        if "from" in body and _pick(("from", body["from"]), 2):
            body["from"] = STATE["account"]
        if "to" in body and _pick(("to", body["to"]), 3):
            body["to"] = STATE["other_account"]
    elif operation_id == "addFavouriteRecipient" and isinstance(body, dict):
        if "number" in body and _pick(("number", body["number"]), 3):
            body["number"] = STATE["other_account"]
    elif operation_id == "removeFavouriteRecipient" and isinstance(path, dict) and "alias" in path:
        if _pick(path["alias"], 4):
            path["alias"] = STATE["favourite"]
    elif operation_id == "getTransfer" and isinstance(path, dict) and "transfer_id" in path:
        if _pick(path["transfer_id"], 3):
            path["transfer_id"] = STATE["transfer"]
    elif operation_id == "refreshSession" and isinstance(body, dict) and "refresh_token" in body:
        if _pick(body["refresh_token"], 3):
            # A fresh one (rotates: 200), or now and then the one rotated before (reuse: 401).
            if _last_refresh_token and _pick(("again", body["refresh_token"]), 2):
                body["refresh_token"] = _last_refresh_token[-1]
            else:
                token = _log_in("logout")["refresh_token"]
                _last_refresh_token.append(token)
                body["refresh_token"] = token
    elif operation_id in ("verifyEmail", "resendVerificationCode") and isinstance(body, dict):
        if "email" in body and _pick(("email", body["email"]), 3):
            body["email"] = USERS["pending"]["email"]
    elif operation_id == "logIn" and isinstance(body, dict):
        # The `login` user's address, mostly with its password: a 200 (a Session) to check, and
        # now and then a wrong one, which counts toward that address's lockout (429), never
        # toward one another role needs.
        if "email" in body and _pick(("email", body.get("email")), 3):
            body["email"] = USERS["login"]["email"]
            if "password" in body and not _pick(("password", body.get("password")), 4):
                body["password"] = USERS["login"]["password"]
    elif operation_id in ("requestPasswordReset", "completePasswordReset") and isinstance(body, dict):
        if "email" in body and _pick(("email", body["email"]), 3):
            body["email"] = USERS["reset"]["email"]

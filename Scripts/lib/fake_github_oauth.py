#!/usr/bin/env python3
"""A fake of GitHub's OAuth device flow and of `GET /user`, on 127.0.0.1, for Scripts/check-keyring.

    fake_github_oauth.py MODE TOKEN     prints its port, then serves until killed (at most 10 minutes)

MODE `grant`: the first poll answers authorization_pending, the second the token. MODE `pending`:
every poll answers authorization_pending (for Ctrl-C). The interval given is 1 second.
"""
import json
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main() -> None:
    mode, token = sys.argv[1], sys.argv[2]
    polls = {"count": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet: CI's log shows the script's own lines
            pass

        def reply(self, status: int, body: dict, headers: dict | None = None) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            if self.path == "/login/device/code" and form.get("client_id"):
                host = self.headers.get("Host")
                self.reply(200, {"device_code": "ci-device-code", "user_code": "MOA-CI42",
                                 "verification_uri": f"http://{host}/login/device", "expires_in": 120, "interval": 1})
            elif self.path == "/login/oauth/access_token" and form.get("device_code") == "ci-device-code":
                polls["count"] += 1
                if mode == "grant" and polls["count"] >= 2:
                    self.reply(200, {"access_token": token, "token_type": "bearer", "scope": ""})
                else:
                    self.reply(200, {"error": "authorization_pending"})
            else:
                self.reply(404, {"message": "Not Found"})

        def do_GET(self) -> None:
            if self.path == "/user" and self.headers.get("Authorization") == f"Bearer {token}":
                self.reply(200, {"login": "moa-ci", "id": 42, "name": "Moa CI"}, {"X-OAuth-Scopes": ""})
            else:
                self.reply(401, {"message": "Bad credentials"})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Timer(600, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()

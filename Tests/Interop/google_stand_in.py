"""Stands in, on loopback, for the Google services a Firebase client signs in through.

- Google's OAuth2 token endpoint (`POST /token`, grant type jwt-bearer): it checks the service
  account's assertion as Google does — RS256 signature verified with the key's public half, the
  `kid`, `iss`, `aud`, `scope`, `iat` and `exp` (at most an hour) — and issues an access token.
- Firebase Auth's REST API as its emulator serves it (`/identitytoolkit.googleapis.com/v1/
  accounts:signInWithPassword` and `/securetoken.googleapis.com/v1/token`), issuing ID tokens
  signed HS256 with a secret the test shares with its `presencetop serve --auth-secret`.

It writes a fresh service account key file (token_uri pointing here), prints `PORT <n>`, then one
JSON line per request it answered: what the client sent (never a password) and the verdict.

Usage: google_stand_in.py --key-file PATH --access-token TOKEN [--lifetime SECONDS]
           [--id-token-secret SECRET] [--user EMAIL:PASSWORD:UID ...] [--api-key KEY]
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import secrets
import signal
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SCOPES = {
    "https://www.googleapis.com/auth/firebase.database",
    "https://www.googleapis.com/auth/userinfo.email",
}


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hs256_jwt(claims, secret):
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    payload = b64url(json.dumps(claims).encode())
    signing_input = f"{header}.{payload}".encode()
    signature = hmac.new(secret.encode(), signing_input, hashlib.sha256).digest()
    return f"{header}.{payload}.{b64url(signature)}"


class StandIn:
    def __init__(self, args):
        self.args = args
        self.private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.public_key = self.private_key.public_key()
        self.key_id = secrets.token_hex(20)
        self.client_email = "presencetop-test@stand-in.iam.gserviceaccount.com"
        self.users = {}
        for entry in args.user or []:
            email, password, uid = entry.split(":", 2)
            self.users[email] = (password, uid)
        self.refresh_tokens = {}
        self.issued = 0

    def write_key_file(self, port):
        self.token_uri = f"http://127.0.0.1:{port}/token"
        pem = self.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode()
        key = {
            "type": "service_account",
            "project_id": "stand-in",
            "private_key_id": self.key_id,
            "private_key": pem,
            "client_email": self.client_email,
            "client_id": "1",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": self.token_uri,
        }
        with open(self.args.key_file, "w") as file:
            json.dump(key, file, indent=2)

    def check_assertion(self, assertion):
        """The reason the assertion is refused, or None."""
        parts = assertion.split(".")
        if len(parts) != 3:
            return "the assertion is not a JWT"
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        if header.get("alg") != "RS256":
            return f"alg {header.get('alg')}, not RS256"
        if header.get("kid") != self.key_id:
            return "kid is not the key's private_key_id"
        try:
            self.public_key.verify(
                b64url_decode(parts[2]),
                f"{parts[0]}.{parts[1]}".encode(),
                padding.PKCS1v15(),
                hashes.SHA256(),
            )
        except InvalidSignature:
            return "Invalid JWT Signature."
        if claims.get("iss") != self.client_email:
            return "iss is not the client_email"
        if claims.get("aud") != self.token_uri:
            return "aud is not the token_uri"
        if set(str(claims.get("scope", "")).split(" ")) != SCOPES:
            return f"scope is {claims.get('scope')!r}"
        iat, exp = claims.get("iat"), claims.get("exp")
        if not isinstance(iat, int) or not isinstance(exp, int):
            return "iat and exp must be integers"
        if exp - iat > 3600 or exp <= iat:
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe."
        return None

    def id_token(self, uid, email):
        now = int(time.time())
        claims = {
            "iss": "https://securetoken.google.com/stand-in",
            "aud": "stand-in",
            "auth_time": now,
            "user_id": uid,
            "sub": uid,
            "iat": now,
            "exp": now + self.args.lifetime,
            "email": email,
        }
        return hs256_jwt(claims, self.args.id_token_secret)


def make_handler(stand_in):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body, record):
            record["status"] = status
            print(json.dumps(record), flush=True)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            content_type = self.headers.get("Content-Type", "")
            if url.path == "/token":
                self.token(body, content_type)
            elif url.path == "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword":
                self.sign_in(query, body)
            elif url.path == "/securetoken.googleapis.com/v1/token":
                self.refresh(query, body)
            else:
                self.answer(404, {"error": "not found"}, {"path": url.path})

        def token(self, body, content_type):
            form = dict(urllib.parse.parse_qsl(body.decode()))
            record = {"path": "/token", "content_type": content_type, "grant_type": form.get("grant_type")}
            if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer":
                return self.answer(400, {"error": "unsupported_grant_type"}, record)
            reason = stand_in.check_assertion(form.get("assertion", ""))
            if reason:
                record["refused"] = reason
                return self.answer(400, {"error": "invalid_grant", "error_description": reason}, record)
            stand_in.issued += 1
            record["issued"] = stand_in.issued
            self.answer(
                200,
                {
                    "access_token": stand_in.args.access_token,
                    "expires_in": stand_in.args.lifetime,
                    "token_type": "Bearer",
                },
                record,
            )

        def sign_in(self, query, body):
            request = json.loads(body or b"{}")
            email = request.get("email")
            record = {"path": "signInWithPassword", "key": query.get("key"), "email": email,
                      "returnSecureToken": request.get("returnSecureToken")}
            if query.get("key") != stand_in.args.api_key:
                return self.answer(400, {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key."}}, record)
            user = stand_in.users.get(email)
            if user is None or user[0] != request.get("password"):
                return self.answer(400, {"error": {"code": 400, "message": "INVALID_LOGIN_CREDENTIALS"}}, record)
            refresh = secrets.token_urlsafe(24)
            stand_in.refresh_tokens[refresh] = (user[1], email)
            self.answer(
                200,
                {
                    "kind": "identitytoolkit#VerifyPasswordResponse",
                    "localId": user[1],
                    "email": email,
                    "idToken": stand_in.id_token(user[1], email),
                    "refreshToken": refresh,
                    "expiresIn": str(stand_in.args.lifetime),
                    "registered": True,
                },
                record,
            )

        def refresh(self, query, body):
            form = dict(urllib.parse.parse_qsl(body.decode()))
            record = {"path": "securetoken", "key": query.get("key"), "grant_type": form.get("grant_type")}
            known = stand_in.refresh_tokens.get(form.get("refresh_token", ""))
            if form.get("grant_type") != "refresh_token" or known is None:
                return self.answer(400, {"error": {"code": 400, "message": "INVALID_REFRESH_TOKEN"}}, record)
            uid, email = known
            self.answer(
                200,
                {
                    "id_token": stand_in.id_token(uid, email),
                    "refresh_token": form["refresh_token"],
                    "expires_in": str(stand_in.args.lifetime),
                    "token_type": "Bearer",
                    "user_id": uid,
                },
                record,
            )

    return Handler


def main():
    # A child of a test runner can inherit its blocked signals: take SIGTERM back.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parser = argparse.ArgumentParser()
    parser.add_argument("--key-file", required=True)
    parser.add_argument("--access-token", required=True)
    parser.add_argument("--lifetime", type=int, default=3600)
    parser.add_argument("--id-token-secret", default="stand-in-secret")
    parser.add_argument("--user", action="append")
    parser.add_argument("--api-key", default="stand-in-api-key")
    args = parser.parse_args()
    stand_in = StandIn(args)
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(stand_in))
    stand_in.write_key_file(server.server_port)
    print(f"PORT {server.server_port} PID {os.getpid()}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()

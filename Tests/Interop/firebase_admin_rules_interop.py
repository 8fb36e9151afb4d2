"""Drives an unmodified firebase-admin (Python) against `presencetop serve --rules` with the
presence rules, acting as users through databaseAuthVariableOverride.

Usage: firebase_admin_rules_interop.py http://127.0.0.1:PORT
Prints one line per check and closes with 'N passed, M failed'; exits 1 if anything failed.
"""
import sys

import firebase_admin
from interop_check import check, finish
from firebase_admin import db

base = sys.argv[1].rstrip("/")


def refused(action):
    """The exception firebase-admin raises for a refused request, or None if it went through."""
    try:
        action()
    except Exception as error:  # firebase_admin.exceptions.* by status; any refusal counts here
        return error
    return None


url = f"{base}?ns=interop"
admin = firebase_admin.initialize_app(options={"databaseURL": url}, name="admin")
morgan = firebase_admin.initialize_app(
    options={"databaseURL": url, "databaseAuthVariableOverride": {"uid": "morgan"}}, name="morgan")
nobody = firebase_admin.initialize_app(
    options={"databaseURL": url, "databaseAuthVariableOverride": None}, name="nobody")

# Admin writes anywhere, even what no user may.
check("admin writes anywhere", refused(lambda: db.reference("users/sam/lastOnline", app=admin).set("never")) is None)

# A user writes their own presence, not someone else's.
own = db.reference("users/morgan/lastOnline", app=morgan)
check("a user writes their own lastOnline", refused(lambda: own.set({".sv": "timestamp"})) is None)
check("it is a server timestamp", isinstance(db.reference("users/morgan/lastOnline", app=admin).get(), int))
error = refused(lambda: db.reference("users/sam/lastOnline", app=morgan).set(1))
check("another user's presence is refused", error is not None, "it was written")
# firebase-admin's message is Firebase's own text, exactly (the reason is in the server's log).
check("in Firebase's words", error is not None and str(error) == "Permission denied", error)
error = refused(lambda: own.set("yesterday"))
check("lastOnline must be a number", error is not None, "a string was written")
check("a signed-in user reads presence", refused(lambda: db.reference("users", app=morgan).get()) is None)

# Signed out: no reads.
error = refused(lambda: db.reference("users", app=nobody).get())
check("a signed-out read is refused", error is not None, "it was read")

for app in (admin, morgan, nobody):
    firebase_admin.delete_app(app)
finish()

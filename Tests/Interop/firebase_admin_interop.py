"""Drives an unmodified firebase-admin (Python) against a running `presencetop serve`.

Usage: firebase_admin_interop.py http://127.0.0.1:PORT
Prints one line per check and closes with 'N passed, M failed'; exits 1 if anything failed.
"""
import sys
import threading
import time
import urllib.request

import firebase_admin
from interop_check import check, finish
from firebase_admin import db

base = sys.argv[1].rstrip("/")


def rest_put(path, body):
    request = urllib.request.Request(f"{base}/{path}.json?ns=interop", data=body.encode(), method="PUT")
    urllib.request.urlopen(request).read()


app = firebase_admin.initialize_app(options={"databaseURL": f"{base}?ns=interop"})
root = db.reference("/")
root.delete()

# set / get / update / push / delete
users = db.reference("users")
users.child("morgan").set({"name": "Morgan", "age": 33})
check("set then get", users.child("morgan").get() == {"name": "Morgan", "age": 33}, users.child("morgan").get())
users.child("morgan").update({"age": 34, "address/city": "Lyon"})
check("update with a multi-segment key", users.child("morgan").get() == {"name": "Morgan", "age": 34, "address": {"city": "Lyon"}})
pushed = db.reference("messages").push({"text": "hi"})
check("push returns a 20-character key", len(pushed.key) == 20, pushed.key)
check("pushed value readable", pushed.get() == {"text": "hi"})
pushed.delete()
check("delete", db.reference("messages").get() is None)

# two spellings of é are two keys
db.reference("spell").set({"\u00e9": 1, "e\u0301": 2})
check("two spellings, two keys", db.reference("spell").get() == {"\u00e9": 1, "e\u0301": 2}, db.reference("spell").get())
check("two spellings, shallow", db.reference("spell").get(shallow=True) == {"\u00e9": True, "e\u0301": True})

# shallow
db.reference("shallow").set({"a": {"deep": 1}, "b": 2})
check("shallow get", db.reference("shallow").get(shallow=True) == {"a": True, "b": True})

# ETags
value, etag = users.child("morgan/name").get(etag=True)
check("get with etag", value == "Morgan" and isinstance(etag, str) and len(etag) > 0, etag)
changed, new_value, new_etag = users.child("morgan/name").get_if_changed(etag)
check("get_if_changed unchanged (304)", changed is False and new_value is None)
users.child("morgan/name").set("Morgane")
changed, new_value, new_etag = users.child("morgan/name").get_if_changed(etag)
check("get_if_changed changed", changed is True and new_value == "Morgane" and new_etag != etag)
success, current, current_etag = users.child("morgan/name").set_if_unchanged(etag, "Stale")
check("set_if_unchanged conflict", success is False and current == "Morgane" and current_etag == new_etag)
success, current, _ = users.child("morgan/name").set_if_unchanged(new_etag, "Fresh")
check("set_if_unchanged success", success is True and users.child("morgan/name").get() == "Fresh")

# transaction with a concurrent writer
counter = db.reference("counter")
counter.set(10)
calls = []


def bump(current):
    calls.append(current)
    if len(calls) == 1:
        rest_put("counter", "100")  # another writer gets in first
    return (current or 0) + 1


result = counter.transaction(bump)
check("transaction reruns on conflict", result == 101 and counter.get() == 101 and len(calls) >= 2, (result, calls))

# queries
scores = db.reference("scores")
scores.set({"a": {"score": 10}, "b": {"score": 30}, "c": {"score": 20}, "d": {"score": 40}})
result = scores.order_by_child("score").start_at(15).limit_to_first(2).get()
check("orderByChild + startAt + limitToFirst", list(result.keys()) == ["c", "b"], result)
result = scores.order_by_key().end_at("c").limit_to_last(2).get()
check("orderByKey + endAt + limitToLast", list(result.keys()) == ["b", "c"], result)
result = scores.order_by_child("score").equal_to(40).get()
check("equalTo", list(result.keys()) == ["d"], result)
db.reference("values").set({"x": 3, "y": 1, "z": 2})
result = db.reference("values").order_by_value().limit_to_last(2).get()
check("orderByValue", list(result.items()) == [("z", 2), ("x", 3)], result)

# server timestamps
before = int(time.time() * 1000)
db.reference("stamp").set({"t": {".sv": "timestamp"}})
stamp = db.reference("stamp/t").get()
check("server timestamp resolved", isinstance(stamp, int) and abs(stamp - before) < 60_000, stamp)
db.reference("inc").set({".sv": {"increment": 5}})
db.reference("inc").set({".sv": {"increment": 5}})
check("server increment resolved", db.reference("inc").get() == 10)

# an increment past the largest double is refused, and what readers get still parses
db.reference("big").set(1e308)
try:
    db.reference("big").set({".sv": {"increment": 1e308}})
    refused = None
except Exception as error:  # firebase-admin raises its own error type for a 400
    refused = error
check("an increment to infinity is refused", refused is not None and "infinite" in str(refused), refused)
check("the value stays finite and parses", db.reference("big").get() == 1e308, db.reference("big").get())

# listen: put first, then patch
events = []
arrived = threading.Event()


def on_event(event):
    events.append((event.event_type, event.path, event.data))
    if len(events) >= 3:
        arrived.set()


room = db.reference("room")
room.set({"a": 1})
registration = room.listen(on_event)
time.sleep(0.3)
room.update({"b": 2})
room.child("a").set(5)
arrived.wait(10)
registration.close()
check("listen: initial put", events[:1] == [("put", "/", {"a": 1})], events)
check("listen: then patch", ("patch", "/", {"b": 2}) in events, events)
check("listen: then put at a child", ("put", "/a", 5) in events, events)

firebase_admin.delete_app(app)
finish()

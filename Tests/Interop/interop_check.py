"""The checks the interop scripts share: one line per check, a summary, and the exit status."""
import sys

passed = failed = 0


def check(name, condition, detail=""):
    """Records one check and prints 'ok' or 'FAIL' with its name."""
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def finish():
    """Prints 'N passed, M failed' and exits 1 if anything failed."""
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
